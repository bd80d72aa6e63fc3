import { attr, esc } from '../render/html.js';
import { deref, type ApiSpec } from '../../urls/site/api-spec.js';

// Schemas drawn as nested lists: each property with its type, whether it is required, its
// description, enum, default and example; an object or array inside one is a <details>
// (collapsed below the first level, readable without script). Bounded: at most MAX_DEPTH
// levels, a `$ref` already being drawn above is named, not drawn again (recursive schemas), and
// at most `budget` properties a page (a 2,000-property schema does not make a 10 MB page).
// Descriptions are markdown: they are collected here (`Texts`) and rendered, sanitized like a
// page's markdown, by the caller, which puts them in place of their markers.

export const MAX_DEPTH = 6;
/**
 * Levels of nested objects drawn in the page itself (0: the top level's properties only, as
 * GitBook shows them); a deeper object is a <details> whose properties load when it is opened
 * (the script fetches `?part=<path>` of the same page; without script it is a link to that
 * address, a page of just that part). Each part draws its own level the same way, so any depth
 * is reachable, and a page stays small whatever the schema (the GitBook spec's customization
 * body is some 2,000 properties deep and wide).
 */
export const INLINE_DEPTH = 0;

/** Markdown texts to render, each replaced in the HTML by its marker. */
export class Texts {
  readonly list: string[] = [];
  constructor(readonly nonce: string) {}
  add(md: string | undefined): string {
    if (!md?.trim()) return '';
    this.list.push(md);
    return `<!--${this.nonce}:${this.list.length - 1}-->`;
  }
}

export interface Draw {
  spec: ApiSpec;
  texts: Texts;
  budget: { left: number };
  /** Deeper levels are loaded on demand (`?part=`); without it (tests of a whole schema) all are drawn. */
  lazy?: boolean;
}

/** A part's address: segments (encoded) from a section (`req/<type>`, `res/<status>/<type>`): `p.<name>`, `i`, `v<n>`, `a`. */
const seg = (s: string) => encodeURIComponent(s);

const scalar = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** The schema with allOf merged (properties and required of every part). */
function merged(d: Draw, schema: any, seen: Set<string>): any {
  if (!Array.isArray(schema?.allOf)) return schema;
  const out: any = { ...schema, properties: { ...(schema.properties ?? {}) }, required: [...(Array.isArray(schema.required) ? schema.required : [])] };
  delete out.allOf;
  for (const part of schema.allOf.slice(0, 20)) {
    const { value, name } = deref(d.spec, part);
    if (!value || (name && seen.has(name))) continue;
    const m = merged(d, value, name ? new Set([...seen, name]) : seen);
    if (m.properties && typeof m.properties === 'object') Object.assign(out.properties, m.properties);
    if (Array.isArray(m.required)) out.required.push(...m.required);
    out.type ??= m.type;
    out.description ??= m.description;
  }
  return out;
}

/** A short type label: `string · date-time`, `object`, `Pet[]`, `one of`. */
export function typeLabel(d: Draw, raw: any): string {
  const { value: s, name } = deref(d.spec, raw);
  if (!s || typeof s !== 'object') return name ?? 'any';
  if (Array.isArray(s.oneOf)) return 'one of';
  if (Array.isArray(s.anyOf)) return 'any of';
  let t = Array.isArray(s.type) ? s.type.filter((x: unknown) => x !== 'null').join(' | ') : s.type;
  if (t === 'array' || (!t && s.items)) {
    const inner = deref(d.spec, s.items);
    return `${inner.name && raw?.items?.$ref ? inner.name : typeLabel(d, s.items)}[]`;
  }
  if (!t && (s.properties || s.allOf || s.additionalProperties)) t = 'object';
  const base = String(t ?? (name || 'any'));
  return s.format ? `${base} · ${s.format}` : base;
}

function facts(s: any): string {
  const out: string[] = [];
  if (Array.isArray(s.enum) && s.enum.length)
    out.push(
      `Possible values: ${s.enum
        .slice(0, 50)
        .map((v: unknown) => `<code>${esc(scalar(v))}</code>`)
        .join(' ')}${s.enum.length > 50 ? ' …' : ''}`,
    );
  if (s.default !== undefined) out.push(`Default: <code>${esc(scalar(s.default))}</code>`);
  if (s.example !== undefined && typeof s.example !== 'object') out.push(`Example: <code>${esc(scalar(s.example))}</code>`);
  for (const [k, label] of [
    ['minimum', 'Min'],
    ['maximum', 'Max'],
    ['minLength', 'Min length'],
    ['maxLength', 'Max length'],
    ['pattern', 'Pattern'],
  ] as const) {
    if (s[k] !== undefined && typeof s[k] !== 'object') out.push(`${label}: <code>${esc(String(s[k]))}</code>`);
  }
  return out.length ? `<p class="facts">${out.join(' · ')}</p>` : '';
}

/** What lies inside a schema (its properties, its items', its variants), or '' for a scalar. */
export function schemaChildren(d: Draw, raw: any, depth: number, seen: Set<string>, path = ''): string {
  const { value, name } = deref(d.spec, raw);
  if (!value || typeof value !== 'object') return '';
  if (name && raw?.$ref && seen.has(name)) return `<p class="circular">Circular reference to <code>${esc(name)}</code> (drawn above).</p>`;
  const inner = name && raw?.$ref ? new Set([...seen, name]) : seen;
  if (depth >= MAX_DEPTH) return `<p class="more">Deeper levels are not shown.</p>`;
  const s = merged(d, value, inner);
  const variants = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (variants) {
    return `<ol class="variants">${variants
      .slice(0, 30)
      .map((v: any, i: number) => {
        const label = deref(d.spec, v).name && v?.$ref ? deref(d.spec, v).name : typeLabel(d, v);
        const body = schemaChildren(d, v, depth + 1, inner, `${path}/v${i}`);
        return `<li><span class="type">${esc(label ?? `Option ${i + 1}`)}</span>${d.texts.add(deref(d.spec, v).value?.description)}${body}</li>`;
      })
      .join('')}</ol>`;
  }
  if (s.type === 'array' || (!s.type && s.items)) return s.items ? schemaChildren(d, s.items, depth, inner, `${path}/i`) : '';
  const props = s.properties && typeof s.properties === 'object' ? Object.entries<any>(s.properties) : [];
  const required = new Set(Array.isArray(s.required) ? s.required : []);
  let html = '';
  if (props.length) html += properties(d, props, required, depth, inner, path);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') {
    html += `<ul class="props"><li><div class="prop"><code>[key: string]</code> <span class="type">${esc(typeLabel(d, s.additionalProperties))}</span></div>${nested(d, s.additionalProperties, depth + 1, inner, `${path}/a`)}</li></ul>`;
  }
  return html;
}

/** A property's inner schema, in a <details> (open at the first level only). */
function nested(d: Draw, raw: any, depth: number, seen: Set<string>, path: string): string {
  if (d.lazy && depth > INLINE_DEPTH) {
    if (!hasInside(d, raw)) return '';
    const href = `?part=${encodeURIComponent(path.slice(1))}`;
    return `<details class="schema" data-part="${attr(href)}"><summary>Show properties</summary><p class="lazy"><a href="${attr(href)}">Show the properties</a></p></details>`;
  }
  const inside = schemaChildren(d, raw, depth, seen, path);
  if (!inside) return '';
  return `<details class="schema"${depth <= 1 ? ' open' : ''}><summary>${depth <= 1 ? 'Properties' : 'Show properties'}</summary>${inside}</details>`;
}

/** Whether a schema has anything inside (properties, items or variants with some): checked without drawing. */
function hasInside(d: Draw, raw: any, n = 0): boolean {
  const s = deref(d.spec, raw).value;
  if (!s || typeof s !== 'object' || n > 4) return false;
  if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf) || Array.isArray(s.allOf)) return true;
  if (s.properties && typeof s.properties === 'object' && Object.keys(s.properties).length) return true;
  if (s.additionalProperties && typeof s.additionalProperties === 'object') return true;
  return s.items ? hasInside(d, s.items, n + 1) : false;
}

/**
 * The schema at a part's address under a section's schema, with the names of the `$ref`s on the
 * way (for circular references), or undefined when the address leads nowhere.
 */
export function schemaAt(d: Draw, root: any, path: string): { raw: any; seen: Set<string> } | undefined {
  let raw = root;
  const seen = new Set<string>();
  for (const part of path.split('/').filter(Boolean).slice(0, 64)) {
    const { value, name } = deref(d.spec, raw);
    if (!value || typeof value !== 'object') return undefined;
    if (name && raw?.$ref) seen.add(name);
    const s = merged(d, value, seen);
    const key = decodeURIComponent(part);
    if (key === 'i') raw = s.items;
    else if (key === 'a') raw = s.additionalProperties;
    else if (/^v\d+$/.test(key)) raw = (s.oneOf ?? s.anyOf)?.[Number(key.slice(1))];
    else if (key.startsWith('p.') && s.properties && Object.hasOwn(s.properties, key.slice(2))) raw = s.properties[key.slice(2)];
    else return undefined;
    if (raw === undefined || raw === null || typeof raw !== 'object') return undefined;
  }
  return { raw, seen };
}

function properties(d: Draw, props: [string, any][], required: Set<unknown>, depth: number, seen: Set<string>, path: string): string {
  const items: string[] = [];
  for (const [name, raw] of props) {
    if (d.budget.left-- <= 0) {
      items.push(`<li class="more">More properties are not shown (see the spec).</li>`);
      break;
    }
    const s = deref(d.spec, raw).value ?? {};
    const flags = [
      required.has(name) ? '<span class="req">required</span>' : '',
      s.deprecated ? '<span class="deprecated">deprecated</span>' : '',
      s.readOnly ? '<span class="flag">read-only</span>' : '',
      s.nullable ? '<span class="flag">nullable</span>' : '',
    ].join('');
    items.push(
      `<li><div class="prop"><code>${esc(name)}</code> <span class="type">${esc(typeLabel(d, raw))}</span>${flags}</div>${d.texts.add(s.description)}${facts(s)}${nested(d, raw, depth + 1, seen, `${path}/p.${seg(name)}`)}</li>`,
    );
  }
  return `<ul class="props">${items.join('')}</ul>`;
}

/** A schema at the top of a section (a request body, a response): its type and what lies inside. */
export function schemaBlock(d: Draw, raw: any, path = ''): string {
  const { value } = deref(d.spec, raw);
  if (!value) return '';
  const inside = schemaChildren(d, raw, 0, new Set(), path);
  return `<p class="schema-type"><span class="type">${esc(typeLabel(d, raw))}</span></p>${d.texts.add(value.description)}${inside}`;
}

/** An example value from a schema (its example, default, enum, or made from its type); bounded. */
export function exampleOf(spec: ApiSpec, raw: any, depth = 0, seen: Set<string> = new Set()): unknown {
  const { value, name } = deref(spec, raw);
  if (!value || typeof value !== 'object' || depth > 6 || (name && raw?.$ref && seen.has(name))) return undefined;
  const inner = name && raw?.$ref ? new Set([...seen, name]) : seen;
  if (value.example !== undefined) return value.example;
  if (Array.isArray(value.examples) && value.examples.length) return value.examples[0];
  if (value.default !== undefined) return value.default;
  if (Array.isArray(value.enum) && value.enum.length) return value.enum[0];
  if (Array.isArray(value.allOf)) {
    const out: Record<string, unknown> = {};
    for (const p of value.allOf.slice(0, 20)) {
      const e = exampleOf(spec, p, depth + 1, inner);
      if (e && typeof e === 'object' && !Array.isArray(e)) Object.assign(out, e);
    }
    return out;
  }
  const variants = value.oneOf ?? value.anyOf;
  if (Array.isArray(variants) && variants.length) return exampleOf(spec, variants[0], depth + 1, inner);
  const type = Array.isArray(value.type) ? value.type.find((t: unknown) => t !== 'null') : value.type;
  if (type === 'array' || (!type && value.items)) {
    const e = exampleOf(spec, value.items, depth + 1, inner);
    return e === undefined ? [] : [e];
  }
  if (type === 'object' || (!type && value.properties)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries<any>(value.properties ?? {}).slice(0, 50)) {
      const e = exampleOf(spec, v, depth + 1, inner);
      if (e !== undefined) out[k] = e;
    }
    return out;
  }
  if (type === 'string')
    return value.format === 'date-time'
      ? '2024-01-01T00:00:00Z'
      : value.format === 'date'
        ? '2024-01-01'
        : value.format === 'uri' || value.format === 'url'
          ? 'https://example.com'
          : value.format === 'email'
            ? 'name@example.com'
            : 'text';
  if (type === 'integer' || type === 'number') return typeof value.minimum === 'number' ? value.minimum : 1;
  if (type === 'boolean') return true;
  return undefined;
}

export const exampleText = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v, null, 2) ?? ''));

export { attr };
