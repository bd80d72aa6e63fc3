import type { Resolved, Resolver } from './resolve.js';

// Schema changes, judged by the direction data flows (the rules of oasdiff, Bump.sh and
// Redocly agree on these): in a REQUEST the client sends, so anything the server now refuses
// that it accepted before is breaking (a narrower type, a removed enum value, a new required
// property, a tighter bound); in a RESPONSE the client reads, so anything the client may now
// receive that it could not before is breaking (a removed or now optional property, a
// changed type, null allowed), and a wider enum is a warning (a client with an exhaustive
// switch may fail; oasdiff also reports it as a warning).

export type Level = 'breaking' | 'warning' | 'info';
export type Direction = 'request' | 'response';

/** A change inside a schema: `field` is the dotted path from the schema compared (`items[].name`). */
export interface SchemaChange {
  id: string;
  level: Level;
  field: string;
  text: string;
}

const join = (prefix: string, child: string) => (!prefix ? child : !child ? prefix : child.startsWith('[') ? prefix + child : `${prefix}.${child}`);
const show = (v: unknown) => JSON.stringify(v);
const UPPER = ['maxLength', 'maximum', 'maxItems', 'maxProperties'] as const;
const LOWER = ['minLength', 'minimum', 'minItems', 'minProperties'] as const;
const ALTERNATIVES = ['oneOf', 'anyOf'] as const;
/** A schema whose allOf is being merged (flatten): met again, it is a cycle. */
const MERGING = Symbol('merging');

export class SchemaDiff {
  /**
   * Changes of each pair of referenced schemas (`oldKey|newKey|direction`), computed once
   * whatever uses them and reported once, with the operations that reach them, not at each.
   */
  readonly memo = new Map<string, SchemaChange[]>();
  /** Which referenced schemas each operation, and each referenced schema, uses directly. */
  readonly uses = new Map<string, Set<string>>();
  /** The operation being compared: the owner of the references reached outside any other. */
  owner = '';
  private readonly stack: string[] = [];
  private readonly same = new Map<string, string[] | null>();
  private readonly pairKeys = new Map<Resolved, Map<Resolved, string[]>>();
  /** Per side, per schema node and file: its allOf merged (see flatten). */
  private readonly flattened = new Map<Resolver, WeakMap<object, Map<string, unknown>>>();
  /** allOf merges made (tests: each schema's once). */
  merges = 0;

  constructor(
    private readonly oldSpec: Resolver,
    private readonly newSpec: Resolver,
  ) {}

  /**
   * The changes of an inline schema (those of the referenced schemas it reaches are in `memo`).
   * `same`: the two sides are known to have the same JSON (children of such a pair).
   */
  compare(oRaw: unknown, oFile: string, nRaw: unknown, nFile: string, dir: Direction, depth = 0, same = false): SchemaChange[] {
    // A pair is keyed (compared once, reported once) when both sides are references; an inline
    // schema (most of those compared) is compared where it is, with no object made to resolve it.
    if (!isRef(oRaw) || !isRef(nRaw)) {
      if (depth > 64) return [];
      // The same JSON on both sides, with no allOf here to merge from references (two thirds of
      // the inline pairs of the GitBook specs): only the references it reaches can differ.
      if (!isRef(oRaw) && !isRef(nRaw) && !hasAllOf(oRaw) && (same || sameJson(oRaw, nRaw, undefined, SAME_DEPTH)))
        return this.compareSame(oRaw, oFile, nRaw, nFile, dir, depth);
      const o = isRef(oRaw) ? this.oldSpec.resolve(oRaw, oFile) : undefined;
      const n = isRef(nRaw) ? this.newSpec.resolve(nRaw, nFile) : undefined;
      const oF = o ? o.file : oFile;
      const nF = n ? n.file : nFile;
      return this.compareResolved(this.flatten(this.oldSpec, o ? o.node : oRaw, oF), oF, this.flatten(this.newSpec, n ? n.node : nRaw, nF), nF, dir, depth);
    }
    const o = this.oldSpec.resolve(oRaw, oFile);
    const n = this.newSpec.resolve(nRaw, nFile);
    const key = this.pairKey(o, n, dir);
    const from = this.stack.length ? this.stack[this.stack.length - 1]! : this.owner;
    let set = this.uses.get(from);
    if (!set) this.uses.set(from, (set = new Set()));
    set.add(key);
    // Computed already, or being computed (a recursive schema): nothing more to do here.
    if (this.memo.has(key)) return [];
    this.memo.set(key, []);
    this.stack.push(key);
    try {
      // The same JSON on both sides (most schemas between two versions): no change here, only
      // in the schemas it references, compared in turn. Much quicker than the walk below.
      const refs = o.file === n.file ? this.sameRefs(o.key!, o.node, n.key!, n.node) : undefined;
      if (refs) {
        for (const ref of refs) this.compare({ $ref: ref }, o.file, { $ref: ref }, n.file, dir);
        return [];
      }
      this.memo.set(key, this.compareResolved(this.flatten(this.oldSpec, o.node, o.file), o.file, this.flatten(this.newSpec, n.node, n.file), n.file, dir, 0));
    } finally {
      this.stack.pop();
    }
    return [];
  }

  /**
   * `oldKey|newKey|direction` of two resolved references, made once per pair: the same string
   * each time, its hash computed once for the maps it keys (memo, uses), not a new string each time
   * the pair is met (issue 30). Resolver.resolve gives the same object for the same reference.
   */
  private pairKey(o: Resolved, n: Resolved, dir: Direction): string {
    let byNew = this.pairKeys.get(o);
    if (!byNew) this.pairKeys.set(o, (byNew = new Map()));
    let keys = byNew.get(n);
    if (!keys) byNew.set(n, (keys = [`${o.key}|${n.key}|request`, `${o.key}|${n.key}|response`]));
    return dir === 'request' ? keys[0]! : keys[1]!;
  }

  /**
   * When the two nodes have the same JSON text (JSON.stringify of each equal, key order
   * included): the `$ref` strings in it, in the order the text has them; else undefined. Once
   * per pair (the same pair is compared in both directions). A walk of both that stops at the
   * first difference, not two texts: it was a sixth of a diff of the GitBook specs (issue 30).
   */
  private sameRefs(oKey: string, o: unknown, nKey: string, n: unknown): string[] | undefined {
    const pair = `${oKey}|${nKey}`;
    let got = this.same.get(pair);
    if (got === undefined) {
      const refs: string[] = [];
      this.same.set(pair, (got = o !== undefined && sameJson(o, n, refs) ? refs : null));
    }
    return got ?? undefined;
  }

  /**
   * allOf merged into one schema (properties, required, the first type/enum/bounds found). Each
   * schema is merged once per side and the merge reused: parts that share parts (A: allOf [B, B'],
   * B and B': allOf [C, C'], ...) were merged again for each path to them, so a spec of a few
   * kilobytes could make the merge exponential (a hostile spec stored by someone else hangs the
   * `openapi put` of a CI job that diffs against it). A part being merged that is met again (an
   * allOf cycle) is left as it is, as the depth bound left a part before.
   */
  private flatten(spec: Resolver, s: any, file: string, depth = 0): any {
    if (!s || typeof s !== 'object' || !Array.isArray(s.allOf) || depth > 16) return s;
    let byNode = this.flattened.get(spec);
    if (!byNode) this.flattened.set(spec, (byNode = new WeakMap()));
    let byFile = byNode.get(s);
    if (!byFile) byNode.set(s, (byFile = new Map()));
    const done = byFile.get(file);
    if (done !== undefined) return done === MERGING ? s : done;
    byFile.set(file, MERGING);
    this.merges++;
    const merged: any = { ...s, properties: { ...(s.properties ?? {}) }, required: [...(s.required ?? [])] };
    delete merged.allOf;
    for (const part of s.allOf) {
      const r = spec.resolve(part, file);
      const p = this.flatten(spec, r.node, r.file, depth + 1);
      if (!p || typeof p !== 'object') continue;
      // Properties of a part keep their reference so that nested $refs resolve from its file.
      for (const [k, v] of Object.entries(p.properties ?? {})) merged.properties[k] ??= r.file === file ? v : { $ref: `${r.file}#/__inline`, __inline: v };
      merged.required.push(...(p.required ?? []));
      for (const [k, v] of Object.entries(p)) if (!(k in merged) && k !== 'properties' && k !== 'required') merged[k] = v;
    }
    if (!Object.keys(merged.properties).length) delete merged.properties;
    if (!merged.required.length) delete merged.required;
    byFile.set(file, merged);
    return merged;
  }

  private compareResolved(o: any, oFile: string, n: any, nFile: string, dir: Direction, depth: number): SchemaChange[] {
    const out: SchemaChange[] = [];
    if (!o || !n || typeof o !== 'object' || typeof n !== 'object') return out;
    const add = (id: string, level: Level, text: string, field = '') => out.push({ id: `${dir}-${id}`, level, field, text });
    const req = dir === 'request';

    // Types, with `nullable` (3.0) as the type null (3.1).
    // The same single type and nullability on both sides (most pairs): no type change, no sets made.
    const sameType = typeof o.type === 'string' && o.type === n.type && (o.nullable === true) === (n.nullable === true);
    const ot = sameType ? undefined : typesOf(o);
    const nt = sameType ? undefined : typesOf(n);
    let compatible = true;
    if (ot && nt) {
      const added = [...nt].filter((t) => !ot.has(t) && !(t === 'number' && ot.has('integer')));
      const removed = [...ot].filter((t) => !nt.has(t) && !(t === 'integer' && nt.has('number')));
      const intWidened = ot.has('integer') && !ot.has('number') && nt.has('number');
      const intNarrowed = ot.has('number') && !nt.has('number') && nt.has('integer');
      if (removed.length === 1 && removed[0] === 'null' && !added.length)
        add('became-not-nullable', req ? 'breaking' : 'info', 'no longer accepts null' + (req ? '' : ' (never null now)'));
      else if (added.length === 1 && added[0] === 'null' && !removed.length) add('became-nullable', req ? 'info' : 'breaking', 'may now be null');
      else if (added.length || removed.length || intWidened || intNarrowed) {
        // A request accepting more types (or integer → number) breaks no client; a response giving fewer neither.
        const widened = !removed.length && !intNarrowed;
        const narrowed = !added.length && !intWidened;
        const level: Level = req ? (widened ? 'info' : 'breaking') : narrowed ? 'info' : 'breaking';
        add('type-changed', level, `type changed: ${[...ot].join('|')} → ${[...nt].join('|')}`);
        compatible = added.length === 0 || removed.length === 0 || intWidened || intNarrowed;
        if (removed.includes('object') || removed.includes('array')) compatible = false;
      }
    }
    if (o.format !== undefined && n.format !== undefined && o.format !== n.format)
      add('format-changed', 'warning', `format changed: ${o.format} → ${n.format}`);
    else if (o.format === undefined && n.format !== undefined) add('format-added', req ? 'warning' : 'info', `format now ${n.format}`);

    // Enums.
    const oe = Array.isArray(o.enum) ? new Set(o.enum.map(show)) : undefined;
    const ne = Array.isArray(n.enum) ? new Set(n.enum.map(show)) : undefined;
    if (oe && ne) {
      const removed = [...oe].filter((v) => !ne.has(v));
      const added = [...ne].filter((v) => !oe.has(v));
      if (removed.length) add('enum-value-removed', req ? 'breaking' : 'info', `enum value${removed.length > 1 ? 's' : ''} removed: ${removed.join(', ')}`);
      if (added.length) add('enum-value-added', req ? 'info' : 'warning', `enum value${added.length > 1 ? 's' : ''} added: ${added.join(', ')}`);
    } else if (!oe && ne) add('enum-added', req ? 'breaking' : 'info', `now restricted to ${[...ne].join(', ')}`);
    else if (oe && !ne) add('enum-removed', req ? 'info' : 'warning', `no longer restricted to ${[...oe].join(', ')}`);

    // Bounds: tighter in a request, looser in a response, are what clients notice.
    // Indexed loops here and below: without the optimizing compiler (withoutOptimizer) each step
    // of a for-of makes an iterator result, and this runs for each of thousands of schemas.
    for (let i = 0; i < UPPER.length; i++) {
      const k = UPPER[i]!;
      const a = o[k];
      const b = n[k];
      if (a === b) continue;
      if (b !== undefined && (a === undefined || b < a)) add(`${k}-decreased`, req ? 'breaking' : 'info', `${k} ${a ?? 'none'} → ${b}`);
      else add(`${k}-increased`, req ? 'info' : 'warning', `${k} ${a} → ${b ?? 'none'}`);
    }
    for (let i = 0; i < LOWER.length; i++) {
      const k = LOWER[i]!;
      const a = o[k];
      const b = n[k];
      if (a === b) continue;
      if (b !== undefined && (a === undefined || b > a)) add(`${k}-increased`, req ? 'breaking' : 'info', `${k} ${a ?? 'none'} → ${b}`);
      else add(`${k}-decreased`, req ? 'info' : 'warning', `${k} ${a} → ${b ?? 'none'}`);
    }
    if (o.pattern !== n.pattern && n.pattern !== undefined)
      add('pattern-changed', req ? 'warning' : 'info', `pattern ${o.pattern === undefined ? 'added' : 'changed'}: ${n.pattern}`);
    if (!compatible) return out;

    // Properties.
    const op: Record<string, any> = o.properties ?? {};
    const np: Record<string, any> = n.properties ?? {};
    const oreq: unknown[] = Array.isArray(o.required) ? o.required : NO_NAMES;
    const nreq: unknown[] = Array.isArray(n.required) ? n.required : NO_NAMES;
    // readOnly properties are never sent, writeOnly ones never received.
    const skip = (spec: Resolver, s: any, file: string) => {
      const r = spec.nodeOf(s, file);
      return r && typeof r === 'object' && (req ? r.readOnly === true : r.writeOnly === true);
    };
    const opNames = Object.keys(op);
    for (let i = 0; i < opNames.length; i++) {
      const name = opNames[i]!;
      if (name in np || skip(this.oldSpec, op[name], oFile)) continue;
      if (req) add('property-removed', 'warning', 'property removed (the server ignores or refuses it now)', name);
      else add('property-removed', 'breaking', 'property removed', name);
    }
    const npNames = Object.keys(np);
    for (let i = 0; i < npNames.length; i++) {
      const name = npNames[i]!;
      if (skip(this.newSpec, np[name], nFile)) continue;
      const required = nreq.includes(name);
      if (!(name in op)) {
        if (req)
          add(
            required ? 'new-required-property' : 'new-optional-property',
            required ? 'breaking' : 'info',
            required ? 'new required property' : 'new optional property',
            name,
          );
        else add('property-added', 'info', 'new property', name);
        continue;
      }
      const wasRequired = oreq.includes(name);
      if (!wasRequired && required) add('property-became-required', req ? 'breaking' : 'info', 'became required', name);
      if (wasRequired && !required) add('property-became-optional', req ? 'info' : 'breaking', 'became optional (may be absent)', name);
      under(out, name, this.child(op[name], oFile, np[name], nFile, dir, depth));
    }
    if (o.additionalProperties !== false && n.additionalProperties === false && req)
      add('additional-properties-refused', 'breaking', 'properties not listed are now refused');
    if (isSchema(o.additionalProperties) && isSchema(n.additionalProperties)) {
      under(out, '{}', this.child(o.additionalProperties, oFile, n.additionalProperties, nFile, dir, depth));
    }
    if (isSchema(o.items) && isSchema(n.items)) {
      under(out, '[]', this.child(o.items, oFile, n.items, nFile, dir, depth));
    }

    // Alternatives: matched by the schema they reference, else by position.
    for (let k = 0; k < ALTERNATIVES.length; k++) {
      const kw = ALTERNATIVES[k]!;
      const ob: any[] = Array.isArray(o[kw]) ? o[kw] : NO_NAMES;
      const nb: any[] = Array.isArray(n[kw]) ? n[kw] : NO_NAMES;
      if (!ob.length && !nb.length) continue;
      // By name, the last of a name (of the new side) kept.
      const nByName = new Map<string, unknown>();
      for (let i = 0; i < nb.length; i++) nByName.set(alternativeName(nb[i], i), nb[i]);
      const oNames = new Set<string>();
      for (let i = 0; i < ob.length; i++) {
        const nm = alternativeName(ob[i], i);
        oNames.add(nm);
        const other = nByName.get(nm);
        if (other === undefined) add(`${kw}-removed`, req ? 'breaking' : 'info', `${kw} alternative ${nm} removed`);
        else {
          const changes = this.child(ob[i], oFile, other, nFile, dir, depth);
          if (changes.length) under(out, `${kw}[${nm}]`, changes);
        }
      }
      for (let i = 0; i < nb.length; i++) {
        const nm = alternativeName(nb[i], i);
        if (!oNames.has(nm)) add(`${kw}-added`, req ? 'info' : 'warning', `${kw} alternative ${nm} added`);
      }
    }
    return out;
  }

  private child(o: unknown, oFile: string, n: unknown, nFile: string, dir: Direction, depth: number, same = false): SchemaChange[] {
    // An allOf part's property was wrapped to remember its file: unwrap it here.
    return this.compare(inner(o), fileOf(o, oFile), inner(n), fileOf(n, nFile), dir, depth + 1, same);
  }

  /**
   * compareResolved of two schemas with the same JSON and no allOf: nothing of their own can
   * have changed (types, enums, bounds, required, property names are the same), so only what
   * compareResolved does besides is done, in its order: the children are compared (each
   * referenced pair in `memo`, found in the same order), properties that are readOnly or
   * writeOnly by reference skipped. No arrays, sets or closures made: most pairs compared are
   * such (issue 30). A value compareResolved compares by identity (`===`, a set of types) that
   * is an object differs from its copy there: such a schema gets the whole comparison.
   */
  private compareSame(o: any, oFile: string, n: any, nFile: string, dir: Direction, depth: number): SchemaChange[] {
    if (!o || !n || typeof o !== 'object' || typeof n !== 'object') return NONE;
    if (!plainKeywords(o)) return this.compareResolved(o, oFile, n, nFile, dir, depth);
    let out: SchemaChange[] | undefined;
    const np = n.properties;
    if (np !== undefined && np !== null) {
      const op = o.properties;
      const req = dir === 'request';
      const names = Object.keys(np);
      for (let i = 0; i < names.length; i++) {
        const name = names[i]!;
        const r = this.newSpec.nodeOf(np[name], nFile);
        if (r && typeof r === 'object' && (req ? r.readOnly === true : r.writeOnly === true)) continue;
        const changes = this.child(op[name], oFile, np[name], nFile, dir, depth, true);
        if (changes.length) under((out ??= []), name, changes);
      }
    }
    if (isSchema(o.additionalProperties) && isSchema(n.additionalProperties)) {
      const changes = this.child(o.additionalProperties, oFile, n.additionalProperties, nFile, dir, depth, true);
      if (changes.length) under((out ??= []), '{}', changes);
    }
    if (isSchema(o.items) && isSchema(n.items)) {
      const changes = this.child(o.items, oFile, n.items, nFile, dir, depth, true);
      if (changes.length) under((out ??= []), '[]', changes);
    }
    for (let k = 0; k < ALTERNATIVES.length; k++) {
      const kw = ALTERNATIVES[k]!;
      const ob = o[kw];
      const nb = n[kw];
      if (!Array.isArray(ob) || !ob.length) continue;
      // Matched by name as compareResolved does: two alternatives of one name pair the first old with the last new.
      const nByName = new Map<string, number>();
      for (let i = 0; i < nb.length; i++) nByName.set(alternativeName(nb[i], i), i);
      for (let i = 0; i < ob.length; i++) {
        const nm = alternativeName(ob[i], i);
        const j = nByName.get(nm)!;
        const changes = this.child(ob[i], oFile, nb[j], nFile, dir, depth, i === j);
        if (changes.length) under((out ??= []), `${kw}[${nm}]`, changes);
      }
    }
    return out ?? NONE;
  }
}

/** No changes: shared, never added to. */
const NONE: SchemaChange[] = [];
/** No names (no `required`, no alternatives): shared, never added to. */
const NO_NAMES: any[] = [];
/** Deeper than this, two inline schemas are compared whole rather than checked for the same JSON first. */
const SAME_DEPTH = 64;

const hasAllOf = (s: any) => !!s && typeof s === 'object' && Array.isArray(s.allOf);

/** A oneOf/anyOf alternative's name: the last part of its $ref, else `#index`. */
const alternativeName = (b: any, i: number) => (typeof b?.$ref === 'string' ? b.$ref.slice(b.$ref.lastIndexOf('/') + 1) : `#${i}`);

const isObject = (v: unknown) => v !== null && typeof v === 'object';

/**
 * Whether compareResolved finds no change between `s` and its copy: its type, format, pattern and
 * bounds are not objects (compared by identity there), `properties` is an object or absent.
 */
function plainKeywords(s: any): boolean {
  const t = s.type;
  if (isObject(t) && !(Array.isArray(t) && !t.some(isObject))) return false;
  if (isObject(s.format) || isObject(s.pattern)) return false;
  for (let i = 0; i < UPPER.length; i++) if (isObject(s[UPPER[i]!]) || isObject(s[LOWER[i]!])) return false;
  const p = s.properties;
  return p === undefined || p === null || typeof p === 'object';
}

/**
 * JSON.stringify(a) === JSON.stringify(b) for parsed JSON or YAML (no undefined, functions or
 * toJSON in it), without making the texts; each string `$ref` found is added to `refs`, in
 * the order of the text.
 */
function sameJson(a: unknown, b: unknown, refs: string[] | undefined, depth = Number.POSITIVE_INFINITY): boolean {
  if (a === b && (a === null || typeof a !== 'object')) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || depth <= 0) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i], refs, depth - 1)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  // a's keys by for-in (no array made: parsed objects have no inherited enumerable keys), b's listed.
  const kb = Object.keys(b);
  let i = 0;
  for (const k in a) {
    if (k !== kb[i++]) return false;
    const x = (a as Record<string, unknown>)[k];
    if (!sameJson(x, (b as Record<string, unknown>)[k], refs, depth - 1)) return false;
    if (refs && k === '$ref' && typeof x === 'string') refs.push(x);
  }
  return i === kb.length;
}

// An allOf part's property, wrapped by flatten: its schema and its file (no arrays: this runs for
// every property compared).
const wrapped = (s: any) => s && typeof s === 'object' && '__inline' in s && typeof s.$ref === 'string';
const inner = (s: any): unknown => (wrapped(s) ? s.__inline : s);
const fileOf = (s: any, file: string): string => (wrapped(s) ? s.$ref.slice(0, s.$ref.indexOf('#')) : file);

/** `changes` (of a child schema) added to `out` with `prefix` before their field. */
function under(out: SchemaChange[], prefix: string, changes: SchemaChange[]): void {
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    out.push({ ...c, field: join(prefix, c.field) });
  }
}

const isSchema = (s: unknown) => !!s && typeof s === 'object';
/** A reference object: what Resolver.resolve follows (and gives a key for). */
const isRef = (s: any) => !!s && typeof s === 'object' && typeof s.$ref === 'string';

function typesOf(s: any): Set<string> | undefined {
  if (s.type === undefined) return undefined;
  const set = new Set<string>(Array.isArray(s.type) ? s.type : [s.type]);
  if (s.nullable === true) set.add('null');
  return set;
}
