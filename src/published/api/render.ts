import { randomBytes } from 'node:crypto';
import type { CodeThemes } from '../render/highlight.js';
import { attr, esc } from '../render/html.js';
import type { Heading } from '../render/markdown.js';
import { renderMarkdown } from '../render/markdown.js';
import { quickMarkdown } from './quick-markdown.js';
import type { ApiPage } from '../../urls/site/api-load.js';
import { exampleOf, exampleText, schemaAt, schemaBlock, schemaChildren, Texts, type Draw } from './schemas.js';
import { authHeaders, bodyExample, requestUrl, samplesOf } from './samples.js';
import { deref, type ApiOperation, type ApiParam, type ApiSpec, type ApiTag } from '../../urls/site/api-spec.js';

// The pages of an API reference, as HTML inside the site's frame: an operation (method and
// path, description, authorization, parameters, request body, responses with their schemas and
// examples, code samples, and a "Test it" form the site's script sends from the browser to the
// spec's server), a tag (its description and operations), the reference itself (the spec's
// description, servers and every operation). Every text of the spec that is markdown is
// rendered by the page renderer (raw HTML dropped, sanitized the same way); everything else is
// escaped here. Whole without script: the schemas are <details>, the samples tabs, the form
// says it needs script.

export interface ApiBody {
  html: string;
  headings: Heading[];
}

const METHOD_CLASS = (m: string) => `method m-${m}`;

/** The method and path, as GitBook shows them at the top of an operation. */
export const endpoint = (op: ApiOperation) =>
  `<p class="endpoint"><span class="${METHOD_CLASS(op.method)}">${esc(op.method.toUpperCase())}</span> <code class="path">${esc(op.path)}</code></p>`;

// Rendered markdown by text (descriptions repeat across operations: a spec's shared schemas).
const rendered = new Map<string, string>();
const RENDERED_MAX = 5000;
/** Longer example or sample texts are shown as plain code: highlighting costs ~20 ms a kB (shiki). */
const HIGHLIGHT_MAX = 1_500;

async function md(text: string, codeThemes: CodeThemes | undefined): Promise<string> {
  const key = `${JSON.stringify(codeThemes ?? null)}\u0000${text}`;
  const hit = rendered.get(key);
  if (hit !== undefined) return hit;
  // Links in a spec's text lead where they say (they are sanitized: no javascript: URL survives).
  const { html } = await renderMarkdown(text, { link: () => undefined, image: () => undefined, codeThemes });
  if (rendered.size >= RENDERED_MAX) rendered.delete(rendered.keys().next().value!);
  rendered.set(key, html);
  return html;
}

/** A fenced code block as markdown (the fence longer than any run of backticks in the code). */
export function fence(code: string, lang: string): string {
  const run = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const tick = '`'.repeat(run + 1);
  return `${tick}${code.length > HIGHLIGHT_MAX ? '' : lang.replace(/[^A-Za-z0-9_+-]/g, '')}\n${code}\n${tick}`;
}

/** Text with nothing markdown would read as markup: its paragraphs, escaped, are what remark makes of it. */
const PLAIN = /^[^*_`[\]<>#|!~&\\{}=+\-:@\n\t]*(\n\n[^*_`[\]<>#|!~&\\{}=+\-:@\n\t]*)*$/;
const isPlain = (t: string) => PLAIN.test(t) && !/(^|\n) |www\.|(^|\n)\d+[.)]/i.test(t);
const plain = (t: string) =>
  t
    .trim()
    .split(/\n\n+/)
    .map((p) => `<p>${esc(p.trim())}</p>`)
    .join('\n');
/** Blocks that must be rendered alone (a fence or a block left open would swallow what follows). */
const ALONE = /```|~~~|\{%|<details|<\/details|<figure/i;

/**
 * Renders a page's markdown texts: plain ones directly, the others in one pass of the renderer
 * (separated by marker paragraphs), those with code or blocks each alone. One pass instead of
 * one per text: an operation of a large schema has hundreds of descriptions.
 */
async function renderAll(list: string[], codeThemes: CodeThemes | undefined): Promise<string[]> {
  const out: string[] = new Array(list.length);
  const batch: number[] = [];
  const alone: number[] = [];
  list.forEach((t, i) => {
    const hit = rendered.get(`${JSON.stringify(codeThemes ?? null)}\u0000${t}`);
    if (hit !== undefined) out[i] = hit;
    else if (isPlain(t)) out[i] = plain(t);
    else if ((out[i] = quickMarkdown(t)!) !== undefined) return;
    else (ALONE.test(t) ? alone : batch).push(i);
  });
  const nonce = `apisep${randomBytes(6).toString('hex')}`;
  const jobs: Promise<void>[] = alone.map(async (i) => {
    out[i] = await md(list[i]!, codeThemes);
  });
  if (batch.length === 1) jobs.push(md(list[batch[0]!]!, codeThemes).then((h) => void (out[batch[0]!] = h)));
  else if (batch.length) {
    jobs.push(
      (async () => {
        const doc = batch.map((i, n) => `${nonce}x${n}\n\n${list[i]}`).join('\n\n');
        const { html } = await renderMarkdown(doc, { link: () => undefined, image: () => undefined, codeThemes });
        const parts = html.split(new RegExp(`<p>${nonce}x\\d+</p>\\n?`));
        batch.forEach((i, n) => {
          out[i] = parts[n + 1] ?? '';
          if (rendered.size >= RENDERED_MAX) rendered.delete(rendered.keys().next().value!);
          rendered.set(`${JSON.stringify(codeThemes ?? null)}\u0000${list[i]}`, out[i]!);
        });
      })(),
    );
  }
  await Promise.all(jobs);
  return out;
}

/**
 * A code block: a short one through the page renderer (highlighted, like a page's code), a long
 * one drawn here as plain code in the same frame (the renderer's cost grows with the text).
 */
function codeBlock(d: Draw, code: string, lang: string): string {
  if (code.length <= HIGHLIGHT_MAX) return d.texts.add(fence(code, lang));
  return `<div class="code"><div class="code-head"><span class="lang">${esc(lang)}</span></div><pre tabindex="0"><code>${esc(code)}</code></pre></div>`;
}

/** Tabs as the renderer draws `{% tabs %}`: each a <details> (all open without script), the script makes them switch. */
const tabs = (items: { title: string; html: string }[]) =>
  `<div class="tabs">${items.map((t) => `<details class="tab" open><summary>${esc(t.title)}</summary>${t.html}</details>`).join('')}</div>`;

async function fill(html: string, texts: Texts, codeThemes: CodeThemes | undefined): Promise<string> {
  const out = await renderAll(texts.list, codeThemes);
  return html.replace(new RegExp(`<!--${texts.nonce}:(\\d+)-->`, 'g'), (_m, i) => `<div class="md">${out[Number(i)] ?? ''}</div>`);
}

const draw = (spec: ApiSpec): Draw => ({ spec, texts: new Texts(`apitext${randomBytes(6).toString('hex')}`), budget: { left: 1500 }, lazy: true });
const seg = (s: string) => encodeURIComponent(s);

function h2(id: string, text: string, headings: Heading[]) {
  headings.push({ depth: 2, text, id });
  return `<h2 id="${id}">${esc(text)}</h2>`;
}

function paramList(d: Draw, params: ApiParam[]): string {
  return `<ul class="props">${params
    .map((p) => {
      const s = deref(d.spec, p.schema).value ?? {};
      const flags = `${p.required ? '<span class="req">required</span>' : ''}${p.deprecated ? '<span class="deprecated">deprecated</span>' : ''}`;
      const ex = p.example ?? s.example;
      const facts = [
        Array.isArray(s.enum) && s.enum.length
          ? `Possible values: ${s.enum
              .slice(0, 50)
              .map((v: unknown) => `<code>${esc(typeof v === 'string' ? v : JSON.stringify(v))}</code>`)
              .join(' ')}`
          : '',
        s.default !== undefined ? `Default: <code>${esc(JSON.stringify(s.default))}</code>` : '',
        ex !== undefined && typeof ex !== 'object' ? `Example: <code>${esc(String(ex))}</code>` : '',
      ].filter(Boolean);
      const type = s.type ? `${s.type}${s.format ? ` · ${s.format}` : ''}` : Array.isArray(s.type) ? s.type.join(' | ') : 'string';
      return `<li><div class="prop"><code>${esc(p.name)}</code> <span class="type">${esc(type)}</span>${flags}</div>${d.texts.add(p.description ?? s.description)}${facts.length ? `<p class="facts">${facts.join(' · ')}</p>` : ''}</li>`;
    })
    .join('')}</ul>`;
}

const IN_TITLES: Record<ApiParam['in'], string> = {
  path: 'Path parameters',
  query: 'Query parameters',
  header: 'Header parameters',
  cookie: 'Cookie parameters',
};

function responseExample(spec: ApiSpec, media: any): unknown {
  if (!media || typeof media !== 'object') return undefined;
  if (media.example !== undefined) return media.example;
  const named = media.examples && typeof media.examples === 'object' ? Object.values<any>(media.examples)[0] : undefined;
  const v = deref(spec, named).value;
  if (v?.value !== undefined) return v.value;
  return exampleOf(spec, media.schema);
}

function tryIt(spec: ApiSpec, op: ApiOperation, head: string): string {
  if (!spec.servers.length) return `${head}<p>The spec names no server with an absolute address: there is nothing to send this request to.</p>`;
  const field = (name: string, label: string, value: string, required: boolean, hint = '') =>
    `<label class="field"><span>${esc(label)}${required ? ' <span class="req">required</span>' : ''}${hint ? ` <span class="type">${esc(hint)}</span>` : ''}</span><input type="text" name="${attr(name)}" value="${attr(value)}"${required ? ' required' : ''} autocomplete="off" spellcheck="false"></label>`;
  const fields: string[] = [];
  fields.push(
    `<label class="field"><span>Server</span><select name="server">${spec.servers.map((u) => `<option value="${attr(u)}">${esc(u)}</option>`).join('')}</select></label>`,
  );
  for (const [k, v] of authHeaders(spec, op)) fields.push(field(`header:${k}`, k, '', false, `header, e.g. ${v}`));
  for (const p of op.params) {
    if (p.in === 'cookie') continue;
    const ex = p.example ?? exampleOf(spec, p.schema);
    fields.push(field(`${p.in}:${p.name}`, p.name, p.in === 'path' && ex !== undefined && typeof ex !== 'object' ? String(ex) : '', p.required, p.in));
  }
  const body = bodyExample(spec, op);
  if (body) {
    fields.push(`<input type="hidden" name="header:Content-Type" value="${attr(body.type)}">`);
    fields.push(
      `<label class="field"><span>Body <span class="type">${esc(body.type)}</span></span><textarea name="body" rows="8" spellcheck="false">${esc(exampleText(body.value))}</textarea></label>`,
    );
  }
  return `${head}<form class="try-it" data-method="${attr(op.method)}" data-path="${attr(op.path)}" aria-label="Test ${attr(op.method.toUpperCase())} ${attr(op.path)}">
<p class="nojs">Sending a request from this page needs JavaScript; the curl sample above is the same request.</p>
<p class="note">The request goes from your browser straight to the API's server (nothing passes through this site); the server must allow requests from this site (CORS).</p>
${fields.join('')}<button type="submit" class="send">Send</button><pre class="try-result" role="status" aria-live="polite" tabindex="0" hidden></pre></form>`;
}

/**
 * Where an operation is drawn inside an ordinary page (an `openapi-operation` block, ./inline.ts)
 * rather than on its own page: `id` is the block's anchor (its sections' ids start with it),
 * `part` the segment before its schema parts' addresses (`?part=<part>/req/...` of the page).
 */
export interface InlinePlace {
  id: string;
  part: string;
}

/**
 * An operation page's body (inside the page frame, after its title); with `inline`, the same
 * operation as a block of an ordinary page: its title a heading, its sections one level below
 * and out of the outline (the block's heading is in it).
 */
export async function operationBody(page: ApiPage, codeThemes?: CodeThemes, inline?: InlinePlace): Promise<ApiBody> {
  const { spec, op } = page as { spec: ApiSpec; op: ApiOperation };
  const d = draw(spec);
  const headings: Heading[] = [];
  const section = (id: string, text: string) => (inline ? `<h3 id="${attr(`${inline.id}-${id}`)}">${esc(text)}</h3>` : h2(id, text, headings));
  const sub = inline ? 'h4' : 'h3';
  const at = inline ? `/${inline.part}` : '';
  const parts: string[] = inline
    ? [`<section class="api-op api-inline" aria-labelledby="${attr(inline.id)}">`, h2(inline.id, op.title, headings), endpoint(op)]
    : [`<div class="api-op">`, endpoint(op)];
  if (op.deprecated) parts.push(`<p class="deprecated-note">This operation is deprecated.</p>`);
  parts.push(d.texts.add(op.description));
  if (op.security.length) {
    parts.push(section('authorizations', 'Authorizations'));
    parts.push(
      `<ul class="props">${op.security
        .map((name) => {
          const s = spec.securitySchemes[name] ?? {};
          const how = s.type === 'http' ? `HTTP ${s.scheme ?? ''}` : s.type === 'apiKey' ? `API key in ${s.in ?? '?'} ${s.name ?? ''}` : String(s.type ?? '');
          return `<li><div class="prop"><code>${esc(name)}</code> <span class="type">${esc(how.trim())}</span></div>${d.texts.add(s.description)}</li>`;
        })
        .join('')}</ul>`,
    );
  }
  const groups = (['path', 'query', 'header', 'cookie'] as const)
    .map((where) => [where, op.params.filter((p) => p.in === where)] as const)
    .filter(([, ps]) => ps.length);
  if (groups.length) {
    parts.push(section('parameters', 'Parameters'));
    for (const [where, ps] of groups) parts.push(`<${sub}>${IN_TITLES[where]}</${sub}>${paramList(d, ps)}`);
  }
  if (op.body) {
    parts.push(section('request-body', 'Request body'));
    parts.push(d.texts.add(op.body.description));
    for (const [type, media] of Object.entries<any>(op.body.content).slice(0, 5)) {
      parts.push(
        `<div class="media"><p class="media-type"><code>${esc(type)}</code>${op.body.required ? ' <span class="req">required</span>' : ''}</p>${schemaBlock(d, media?.schema, `${at}/req/${seg(type)}`)}</div>`,
      );
    }
    const ex = bodyExample(spec, op);
    if (ex)
      parts.push(
        `<details class="example"><summary>Example</summary>${codeBlock(d, exampleText(ex.value), /json/i.test(ex.type) ? 'json' : 'text')}</details>`,
      );
  }
  if (op.responses.length) {
    parts.push(section('responses', 'Responses'));
    op.responses.slice(0, 30).forEach(([status, raw], i) => {
      const r = deref(spec, raw).value ?? {};
      const content = responseContent(spec, raw);
      const cls = /^2/.test(status) ? 's2' : /^[45]/.test(status) ? 's4' : 's3';
      const inner = content
        .slice(0, 5)
        .map(([type, media]) => {
          const ex = responseExample(spec, media);
          return `<div class="media"><p class="media-type"><code>${esc(type)}</code></p>${schemaBlock(d, media?.schema, `${at}/res/${seg(status)}/${seg(type)}`)}${ex !== undefined ? `<details class="example"><summary>Example</summary>${codeBlock(d, exampleText(ex), /json/i.test(type) ? 'json' : 'text')}</details>` : ''}</div>`;
        })
        .join('');
      const desc = typeof r.description === 'string' ? r.description : '';
      parts.push(
        `<details class="response"${i === 0 ? ' open' : ''}><summary><span class="status ${cls}">${esc(status)}</span> ${esc(desc.split('\n')[0]!.slice(0, 200))}</summary>${desc.includes('\n') ? d.texts.add(desc) : ''}${inner || '<p>No content.</p>'}</details>`,
      );
    });
  }
  parts.push(section('code-samples', 'Code samples'));
  const samples = samplesOf(spec, op);
  parts.push(
    tabs(
      samples.map((s) => ({
        title: s.label,
        html: codeBlock(d, s.source, s.lang === 'curl' || s.lang === 'shell' || s.lang === 'sh' ? 'bash' : s.lang || 'text'),
      })),
    ),
  );
  parts.push(tryIt(spec, op, section('test-it', 'Test it')));
  parts.push(inline ? '</section>' : '</div>');
  return { html: await fill(parts.join('\n'), d.texts, codeThemes), headings };
}

/** A response's media types and their schemas (Swagger 2 keeps the schema on the response). */
function responseContent(spec: ApiSpec, raw: any): [string, any][] {
  const r = deref(spec, raw).value ?? {};
  return r.content && typeof r.content === 'object'
    ? Object.entries(r.content)
    : r.schema
      ? [['application/json', { schema: r.schema, example: r.examples?.['application/json'] }]]
      : [];
}

/**
 * One part of an operation's schemas (`?part=req/<type>/p.a/p.b`, `res/<status>/<type>/...`): what
 * a collapsed deeper level holds, loaded when it is opened. Undefined when the address leads nowhere.
 */
export async function partBody(page: ApiPage, part: string, codeThemes?: CodeThemes): Promise<ApiBody | undefined> {
  const { spec, op } = page as { spec: ApiSpec; op: ApiOperation };
  const segs = part.split('/');
  let root: any;
  let rest: string[];
  if (segs[0] === 'req' && segs[1] !== undefined) {
    root = op.body?.content[decodeURIComponent(segs[1])]?.schema;
    rest = segs.slice(2);
  } else if (segs[0] === 'res' && segs[1] !== undefined && segs[2] !== undefined) {
    const status = decodeURIComponent(segs[1]);
    const resp = op.responses.find(([st]) => st === status);
    root = resp ? responseContent(spec, resp[1]).find(([t]) => t === decodeURIComponent(segs[2]!))?.[1]?.schema : undefined;
    rest = segs.slice(3);
  } else return undefined;
  if (!root) return undefined;
  const d = draw(spec);
  const at = schemaAt(d, root, rest.join('/'));
  if (!at) return undefined;
  const inside = schemaChildren(d, at.raw, 0, at.seen, `/${part}`);
  const label = rest
    .filter((x) => x.startsWith('p.'))
    .map((x) => decodeURIComponent(x).slice(2))
    .join('.');
  const html = `<div class="api-op">${endpoint(op)}<p class="part-of">Properties of <code>${esc(label || 'the schema')}</code> (${esc(segs[0] === 'req' ? 'request body' : `response ${decodeURIComponent(segs[1]!)}`)}).</p><div class="api-part">${inside || '<p>No properties.</p>'}</div></div>`;
  return { html: await fill(html, d.texts, codeThemes), headings: [] };
}

const opLink = (base: string, op: ApiOperation) =>
  `<li><a href="${attr(`${base}/${op.slug}`)}"><span class="${METHOD_CLASS(op.method)}">${esc(op.method.toUpperCase())}</span> <span>${esc(op.title)}</span></a> <code class="path">${esc(op.path)}</code></li>`;

/** A tag's page: its description and its operations. `url` is the tag page's address. */
export async function tagBody(page: ApiPage, url: string, codeThemes?: CodeThemes): Promise<ApiBody> {
  const tag = page.tag as ApiTag;
  const d = draw(page.spec);
  const html = `<div class="api-tag">${d.texts.add(tag.description)}<ul class="ops">${tag.ops.map((op) => opLink(url, op)).join('')}</ul></div>`;
  return { html: await fill(html, d.texts, codeThemes), headings: [] };
}

/** What the reference page adds after its own text: the spec's description, servers, every tag's operations. */
export async function rootBody(page: ApiPage, url: string, codeThemes?: CodeThemes, tagSlugs?: Map<string, string>): Promise<ApiBody> {
  const { spec } = page;
  const d = draw(spec);
  const headings: Heading[] = [];
  const parts = [
    `<div class="api-root">`,
    `<p class="api-version">${esc(spec.title)}${spec.version ? ` <span class="type">${esc(spec.version)}</span>` : ''}</p>`,
    d.texts.add(spec.description),
  ];
  if (spec.servers.length) parts.push(`<p class="servers">Servers: ${spec.servers.map((s) => `<code>${esc(s)}</code>`).join(' ')}</p>`);
  for (const tag of spec.tags) {
    const slug = tagSlugs?.get(tag.slug) ?? tag.slug;
    const id = `tag-${tag.slug}`;
    headings.push({ depth: 2, text: tag.name, id });
    parts.push(
      `<h2 id="${attr(id)}"><a href="${attr(`${url}/${slug}`)}">${esc(tag.name)}</a></h2><ul class="ops">${tag.ops
        .slice(0, 200)
        .map((op) => opLink(`${url}/${slug}`, op))
        .join('')}${tag.ops.length > 200 ? `<li><a href="${attr(`${url}/${slug}`)}">All ${tag.ops.length} operations</a></li>` : ''}</ul>`,
    );
  }
  parts.push('</div>');
  return { html: await fill(parts.join('\n'), d.texts, codeThemes), headings };
}

// ---- Markdown (the `.md` of a page, llms-full.txt) ----

function schemaMd(spec: ApiSpec, raw: any, indent: string, depth: number, seen: Set<string>, budget: { left: number }): string[] {
  const { value, name } = deref(spec, raw);
  if (!value || typeof value !== 'object' || depth > 4) return [];
  if (name && raw?.$ref && seen.has(name)) return [`${indent}- (circular: ${name})`];
  const inner = name && raw?.$ref ? new Set([...seen, name]) : seen;
  const s = value.type === 'array' || value.items ? (deref(spec, value.items).value ?? {}) : value;
  const props = s.properties && typeof s.properties === 'object' ? Object.entries<any>(s.properties) : [];
  const required = new Set(Array.isArray(s.required) ? s.required : []);
  const out: string[] = [];
  for (const [k, v] of props) {
    if (budget.left-- <= 0) break;
    const pv = deref(spec, v).value ?? {};
    const type = pv.type ?? (deref(spec, v).name || 'object');
    out.push(`${indent}- \`${k}\` (${type}${required.has(k) ? ', required' : ''})${pv.description ? `: ${String(pv.description).split('\n')[0]}` : ''}`);
    out.push(...schemaMd(spec, v, `${indent}  `, depth + 1, inner, budget));
  }
  return out;
}

/** An operation as markdown: what an agent needs to call it. */
export function operationMarkdown(page: ApiPage): string {
  const { spec, op } = page as { spec: ApiSpec; op: ApiOperation };
  const out = [`\`${op.method.toUpperCase()} ${op.path}\``, ''];
  if (spec.servers[0]) out.push(`Server: ${spec.servers[0]}`, '');
  if (op.deprecated) out.push('Deprecated.', '');
  if (op.description) out.push(op.description.trim(), '');
  if (op.params.length) {
    out.push('## Parameters', '');
    for (const p of op.params) {
      const s = deref(spec, p.schema).value ?? {};
      out.push(`- \`${p.name}\` (${p.in}, ${s.type ?? 'string'}${p.required ? ', required' : ''})${p.description ? `: ${p.description.split('\n')[0]}` : ''}`);
    }
    out.push('');
  }
  const budget = { left: 300 };
  if (op.body) {
    out.push('## Request body', '');
    for (const [type, media] of Object.entries<any>(op.body.content).slice(0, 3))
      out.push(`\`${type}\``, '', ...schemaMd(spec, media?.schema, '', 0, new Set(), budget), '');
  }
  if (op.responses.length) {
    out.push('## Responses', '');
    for (const [status, raw] of op.responses.slice(0, 30)) {
      const r = deref(spec, raw).value ?? {};
      out.push(`- ${status}: ${typeof r.description === 'string' ? r.description.split('\n')[0] : ''}`);
    }
    out.push('');
  }
  const curl = samplesOf(spec, op).find((s) => s.label === 'curl');
  if (curl) out.push('## Example request', '', fence(curl.source, 'bash'), '');
  return out.join('\n');
}

export function tagMarkdown(page: ApiPage): string {
  const tag = page.tag as ApiTag;
  return [tag.description ?? '', '', ...tag.ops.map((op) => `- \`${op.method.toUpperCase()} ${op.path}\`: ${op.title}`)].join('\n').trim() + '\n';
}

export function rootMarkdown(page: ApiPage): string {
  const { spec } = page;
  const out = [`${spec.title}${spec.version ? ` (${spec.version})` : ''}`, ''];
  if (spec.description) out.push(spec.description.trim(), '');
  if (spec.servers.length) out.push(`Servers: ${spec.servers.join(', ')}`, '');
  for (const tag of spec.tags) out.push(`## ${tag.name}`, '', ...tag.ops.map((op) => `- \`${op.method.toUpperCase()} ${op.path}\`: ${op.title}`), '');
  return out.join('\n');
}

/** A generated page's markdown (for `.md` and llms-full.txt). */
export const apiMarkdown = (page: ApiPage) => (page.kind === 'op' ? operationMarkdown(page) : page.kind === 'tag' ? tagMarkdown(page) : rootMarkdown(page));

/** The operation's request URL, for search snippets. */
export { requestUrl };
