import { collate, collationKeys } from '../../kernel/collate.js';
import { Resolver, type SpecFiles } from './resolve.js';
import { type Level, type SchemaChange, SchemaDiff } from './schema.js';

// The changes between two versions of an API description, each classified breaking (a client
// written against OLD can fail against NEW), warning (it may, depending on the client) or info
// (it cannot). The rules are those of oasdiff, Bump.sh and Redocly where they agree;
// docs/manual/openapi.md#breaking-changes-gates-and-dry-runs lists them. Swagger 2.0 is read as the OpenAPI 3 it
// converts to (body and formData parameters as the request body, response schemas as JSON).

export type { Level } from './schema.js';

export interface Change {
  /** A rule id, e.g. `endpoint-removed`, `response-property-removed`. */
  id: string;
  level: Level;
  /** `GET /pets/{id}`, or absent for a change of the whole spec or of a referenced schema. */
  operation?: string;
  /**
   * A change inside a referenced schema (`Pet`, or `file#/pointer` in another file) is reported
   * once, with the operations that reach it (directly or through other schemas), sorted.
   */
  schema?: string;
  operations?: string[];
  /** Where in the operation: `parameter query limit`, `request body application/json`, `response 200`. */
  where?: string;
  /** The schema field inside `where`, e.g. `items[].name`. */
  field?: string;
  message: string;
}

export interface DiffResult {
  changes: Change[];
  summary: Record<Level, number>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const LEVEL_ORDER: Record<Level, number> = { breaking: 0, warning: 1, info: 2 };

interface Op {
  method: string;
  path: string;
  op: any;
  item: any;
  file: string;
}

/** Operations by `METHOD /path` with path parameter names blanked (renaming `{id}` changes nothing). */
function operations(spec: Resolver): Map<string, Op> {
  const out = new Map<string, Op>();
  const paths = spec.root?.paths ?? {};
  for (const [path, raw] of Object.entries<any>(paths)) {
    const { node: item, file } = spec.resolve(raw, spec.spec.root);
    if (!item || typeof item !== 'object') continue;
    for (const m of METHODS) {
      if (item[m] && typeof item[m] === 'object')
        out.set(`${m.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`, { method: m.toUpperCase(), path, op: item[m], item, file });
    }
  }
  return out;
}

const isSwagger2 = (spec: Resolver) => spec.root?.swagger === '2.0';

interface Param {
  key: string;
  label: string;
  required: boolean;
  schema: any;
  file: string;
}

/** A path parameter's name, `{name}` (global: exec walks the path, and ends at lastIndex 0). */
const PATH_NAME = /\{([^}]*)\}/g;

/** The effective parameters (path item's, overridden by the operation's), body and formData aside. */
function parameters(spec: Resolver, o: Op): Map<string, Param> {
  const byKey = new Map<string, Param>();
  const pathNames: string[] = [];
  for (let m = PATH_NAME.exec(o.path); m; m = PATH_NAME.exec(o.path)) pathNames.push(m[1]!);
  for (let l = 0; l < 2; l++) {
    const list = l === 0 ? o.item.parameters : o.op.parameters;
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) {
      const { node: p, file } = spec.resolve(list[i], o.file);
      if (!p || typeof p !== 'object' || p.in === 'body' || p.in === 'formData') continue;
      const name = p.in === 'header' ? String(p.name).toLowerCase() : String(p.name);
      // Path parameters by position: `/pets/{id}` and `/pets/{petId}` take the same argument.
      const key = p.in === 'path' ? `path#${pathNames.indexOf(p.name)}` : `${p.in}:${name}`;
      const schema =
        p.schema ??
        (p.content
          ? Object.values<any>(p.content)[0]?.schema
          : {
              type: p.type,
              format: p.format,
              enum: p.enum,
              items: p.items,
              maximum: p.maximum,
              minimum: p.minimum,
              maxLength: p.maxLength,
              minLength: p.minLength,
              pattern: p.pattern,
            });
      byKey.set(key, { key, label: `${p.in} ${p.name}`, required: p.required === true || p.in === 'path', schema, file });
    }
  }
  return byKey;
}

interface Body {
  required: boolean;
  content: Record<string, { schema: any; file: string }>;
}

function requestBody(spec: Resolver, o: Op): Body | undefined {
  if (isSwagger2(spec)) {
    const params = [...(o.item.parameters ?? []), ...(o.op.parameters ?? [])].map((p) => spec.resolve(p, o.file));
    const consumes: string[] = o.op.consumes ?? spec.root.consumes ?? ['application/json'];
    const body = params.find((p) => p.node?.in === 'body');
    if (body)
      return { required: body.node.required === true, content: Object.fromEntries(consumes.map((c) => [c, { schema: body.node.schema, file: body.file }])) };
    const form = params.filter((p) => p.node?.in === 'formData');
    if (!form.length) return undefined;
    const schema = {
      type: 'object',
      properties: Object.fromEntries(form.map((p) => [p.node.name, { type: p.node.type, format: p.node.format, enum: p.node.enum }])),
      required: form.filter((p) => p.node.required).map((p) => p.node.name),
    };
    return { required: form.some((p) => p.node.required), content: { 'application/x-www-form-urlencoded': { schema, file: o.file } } };
  }
  const { node: rb, file } = spec.resolve(o.op.requestBody, o.file);
  if (!rb || typeof rb !== 'object') return undefined;
  return { required: rb.required === true, content: mediaTypes(rb.content, file) };
}

/**
 * `Object.fromEntries(Object.entries(content ?? {}).map(([t, m]) => [t, { schema: m?.schema, file }]))`
 * with no pair or list made for each media type (runs for every body and response compared).
 */
function mediaTypes(content: any, file: string): Record<string, { schema: any; file: string }> {
  const out: Record<string, { schema: any; file: string }> = {};
  if (content === undefined || content === null) return out;
  const types = Object.keys(content);
  for (let i = 0; i < types.length; i++) {
    const t = types[i]!;
    const value = { schema: content[t]?.schema, file };
    // As fromEntries defines it: an own property even for `__proto__`.
    if (t === '__proto__') Object.defineProperty(out, t, { value, writable: true, enumerable: true, configurable: true });
    else out[t] = value;
  }
  return out;
}

function responses(spec: Resolver, o: Op): Map<string, { content: Record<string, { schema: any; file: string }> }> {
  const out = new Map();
  const produces: string[] = o.op.produces ?? spec.root?.produces ?? ['application/json'];
  const all = o.op.responses ?? {};
  const statuses = Object.keys(all);
  for (let i = 0; i < statuses.length; i++) {
    const status = statuses[i]!;
    const { node: r, file } = spec.resolve(all[status], o.file);
    if (!r || typeof r !== 'object') continue;
    const content = isSwagger2(spec) ? (r.schema ? Object.fromEntries(produces.map((t) => [t, { schema: r.schema, file }])) : {}) : mediaTypes(r.content, file);
    out.set(String(status), { content });
  }
  return out;
}

const isSuccess = (status: string) => /^2/.test(status);

/** Each accepted alternative of security requirements, as `scheme[scope scope]` sorted. */
function security(spec: Resolver, o: Op): Map<string, Map<string, string[]>> | undefined {
  const reqs = o.op.security ?? spec.root?.security;
  if (!Array.isArray(reqs)) return undefined;
  const out = new Map<string, Map<string, string[]>>();
  for (const r of reqs) {
    const m = new Map<string, string[]>(Object.entries<any>(r ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v : []]));
    out.set([...m.keys()].sort().join(' + ') || '(none)', m);
  }
  return out;
}

function securitySchemes(spec: Resolver): Record<string, any> {
  return (isSwagger2(spec) ? spec.root?.securityDefinitions : spec.root?.components?.securitySchemes) ?? {};
}

/** Every change from OLD to NEW, breaking first, then by operation. */
export function diffSpecs(oldFiles: SpecFiles, newFiles: SpecFiles): DiffResult {
  const oldSpec = new Resolver(oldFiles);
  const newSpec = new Resolver(newFiles);
  const schemas = new SchemaDiff(oldSpec, newSpec);
  const changes: Change[] = [];
  const push = (c: Change) => changes.push(c);

  const oldOps = operations(oldSpec);
  const newOps = operations(newSpec);
  const newPaths = new Set([...newOps.values()].map((o) => o.path.replace(/\{[^}]*\}/g, '{}')));
  // Maps walked with forEach and lists by index, here and below: without the optimizing compiler
  // (withoutOptimizer) each step of a for-of makes an iterator result (and a [key, value] pair).
  oldOps.forEach((o, key) => {
    if (newOps.has(key)) return;
    const pathGone = !newPaths.has(o.path.replace(/\{[^}]*\}/g, '{}'));
    push({
      id: pathGone ? 'path-removed' : 'endpoint-removed',
      level: 'breaking',
      operation: `${o.method} ${o.path}`,
      message: pathGone ? `path ${o.path} removed` : 'operation removed',
    });
  });
  newOps.forEach((n, key) => {
    if (!oldOps.has(key)) push({ id: 'endpoint-added', level: 'info', operation: `${n.method} ${n.path}`, message: 'operation added' });
  });

  oldOps.forEach((o, key) => {
    const n = newOps.get(key);
    if (!n) return;
    const operation = `${n.method} ${n.path}`;
    schemas.owner = operation;
    const at = (c: Omit<Change, 'operation'>) => push({ operation, ...c });
    if (!o.op.deprecated && n.op.deprecated) at({ id: 'endpoint-deprecated', level: 'info', message: 'operation deprecated' });
    if (o.op.operationId && n.op.operationId && o.op.operationId !== n.op.operationId) {
      at({
        id: 'operation-id-changed',
        level: 'warning',
        message: `operationId changed: ${o.op.operationId} → ${n.op.operationId} (generated clients name methods by it)`,
      });
    }

    // Parameters.
    const op = parameters(oldSpec, o);
    const np = parameters(newSpec, n);
    op.forEach((p, k) => {
      if (!np.has(k)) at({ id: 'request-parameter-removed', level: 'breaking', where: `parameter ${p.label}`, message: 'parameter removed' });
    });
    np.forEach((p, k) => {
      const was = op.get(k);
      if (!was) {
        at(
          p.required
            ? { id: 'new-required-request-parameter', level: 'breaking', where: `parameter ${p.label}`, message: 'new required parameter' }
            : { id: 'new-optional-request-parameter', level: 'info', where: `parameter ${p.label}`, message: 'new optional parameter' },
        );
        return;
      }
      if (!was.required && p.required)
        at({ id: 'request-parameter-became-required', level: 'breaking', where: `parameter ${p.label}`, message: 'became required' });
      if (was.required && !p.required)
        at({ id: 'request-parameter-became-optional', level: 'info', where: `parameter ${p.label}`, message: 'became optional' });
      const found = schemas.compare(was.schema, was.file, p.schema, p.file, 'request');
      for (let i = 0; i < found.length; i++) {
        const c = found[i]!;
        at({
          id: c.id.replace(/^request-/, 'request-parameter-'),
          level: c.level,
          where: `parameter ${p.label}`,
          ...(c.field ? { field: c.field } : {}),
          message: c.text,
        });
      }
    });

    // Request body.
    const ob = requestBody(oldSpec, o);
    const nb = requestBody(newSpec, n);
    if (!ob && nb)
      at(
        nb.required
          ? { id: 'new-required-request-body', level: 'breaking', where: 'request body', message: 'request body added, required' }
          : { id: 'new-optional-request-body', level: 'info', where: 'request body', message: 'optional request body added' },
      );
    else if (ob && !nb)
      at({ id: 'request-body-removed', level: 'warning', where: 'request body', message: 'request body removed (the server ignores or refuses it now)' });
    else if (ob && nb) {
      if (!ob.required && nb.required) at({ id: 'request-body-became-required', level: 'breaking', where: 'request body', message: 'became required' });
      if (ob.required && !nb.required) at({ id: 'request-body-became-optional', level: 'info', where: 'request body', message: 'became optional' });
      for (const type in ob.content) {
        const m = ob.content[type]!;
        const other = nb.content[type];
        const where = `request body ${type}`;
        if (!other) at({ id: 'request-body-media-type-removed', level: 'breaking', where, message: 'media type no longer accepted' });
        else {
          const found = schemas.compare(m.schema, m.file, other.schema, other.file, 'request');
          for (let i = 0; i < found.length; i++) {
            const c = found[i]!;
            at({ id: c.id.replace(/^request-/, 'request-body-'), level: c.level, where, ...(c.field ? { field: c.field } : {}), message: c.text });
          }
        }
      }
      for (const type in nb.content)
        if (!ob.content[type]) at({ id: 'request-body-media-type-added', level: 'info', where: `request body ${type}`, message: 'media type now accepted' });
    }

    // Responses.
    const or = responses(oldSpec, o);
    const nr = responses(newSpec, n);
    or.forEach((r, status) => {
      const other = nr.get(status);
      if (!other) {
        at(
          isSuccess(status)
            ? { id: 'response-success-status-removed', level: 'breaking', where: `response ${status}`, message: 'success status no longer returned' }
            : { id: 'response-non-success-status-removed', level: 'warning', where: `response ${status}`, message: 'status no longer described' },
        );
        return;
      }
      for (const type in r.content) {
        const m = r.content[type]!;
        const got = other.content[type];
        const where = `response ${status} ${type}`;
        if (!got) at({ id: 'response-media-type-removed', level: isSuccess(status) ? 'breaking' : 'warning', where, message: 'media type no longer returned' });
        else {
          const found = schemas.compare(m.schema, m.file, got.schema, got.file, 'response');
          for (let i = 0; i < found.length; i++) {
            const c = found[i]!;
            at({ id: c.id, level: c.level, where, ...(c.field ? { field: c.field } : {}), message: c.text });
          }
        }
      }
      for (const type in other.content)
        if (!r.content[type]) at({ id: 'response-media-type-added', level: 'info', where: `response ${status} ${type}`, message: 'media type added' });
    });
    nr.forEach((_, status) => {
      if (or.has(status)) return;
      // A new success status where one existed: a client checking for the old one may miss it.
      const level: Level = isSuccess(status) ? 'warning' : 'info';
      at({
        id: isSuccess(status) ? 'response-success-status-added' : 'response-non-success-status-added',
        level,
        where: `response ${status}`,
        message: 'status added',
      });
    });

    // Security: an alternative a client used that is no longer accepted breaks it.
    const os = security(oldSpec, o);
    const ns = security(newSpec, n);
    const open = (s: typeof os) => !s || s.size === 0 || s.has('(none)');
    if (open(os) && !open(ns))
      at({ id: 'security-added', level: 'breaking', where: 'security', message: `authentication now required (${[...ns!.keys()].join(' or ')})` });
    else if (!open(os) && ns) {
      for (const [alt, scopes] of os!) {
        const now = ns.get(alt);
        if (!now) {
          at({ id: 'security-requirement-removed', level: 'breaking', where: 'security', message: `${alt} no longer accepted` });
          continue;
        }
        for (const [scheme, list] of now) {
          const added = list.filter((s) => !(scopes.get(scheme) ?? []).includes(s));
          if (added.length)
            at({
              id: 'security-scope-added',
              level: 'breaking',
              where: 'security',
              message: `${scheme} now needs scope${added.length > 1 ? 's' : ''} ${added.join(', ')}`,
            });
        }
      }
      for (const alt of ns.keys())
        if (!os!.has(alt)) at({ id: 'security-requirement-added', level: 'info', where: 'security', message: `${alt} now accepted too` });
    } else if (!open(os) && open(ns)) at({ id: 'security-removed', level: 'info', where: 'security', message: 'authentication no longer required' });
  });

  const oldSchemes = securitySchemes(oldSpec);
  const newSchemes = securitySchemes(newSpec);
  for (const [name, raw] of Object.entries(oldSchemes)) {
    if (!(name in newSchemes)) {
      push({ id: 'security-scheme-removed', level: 'breaking', where: `security scheme ${name}`, message: 'security scheme removed' });
      continue;
    }
    const a = oldSpec.resolve(raw, oldFiles.root).node ?? {};
    const b = newSpec.resolve(newSchemes[name], newFiles.root).node ?? {};
    if (a.type !== b.type || a.in !== b.in || a.name !== b.name || a.scheme !== b.scheme) {
      push({
        id: 'security-scheme-changed',
        level: 'breaking',
        where: `security scheme ${name}`,
        message: `changed: ${describeScheme(a)} → ${describeScheme(b)}`,
      });
    }
  }
  for (const name of Object.keys(newSchemes))
    if (!(name in oldSchemes)) push({ id: 'security-scheme-added', level: 'info', where: `security scheme ${name}`, message: 'security scheme added' });

  changes.push(...schemaChanges(schemas, newFiles.root));
  sortChanges(changes);
  const summary: Record<Level, number> = { breaking: 0, warning: 0, info: 0 };
  for (let i = 0; i < changes.length; i++) summary[changes[i]!.level]++;
  return { changes, summary };
}

// ICU's order ('en', as localeCompare with no arguments on an English system), without the
// ICU collator for ASCII names (src/kernel/collate.ts): the order no longer depends on the locale.
const sortKey = (c: Change) => c.operation ?? (c.schema !== undefined ? `~${c.schema}` : `~~${c.where ?? ''}`);

/**
 * Breaking first, then by operation (or schema, or where), then as found. The changes share few
 * sort keys (1,811 changes, 511 keys between the GitBook specs 0.146.0 and 0.202.0): the distinct
 * keys are ordered once, each given its place, and the changes put in order by their rank (level,
 * then place) in one pass, keeping the order of finding within a rank; a collation key per change
 * and string comparisons were a fifth of the diff (issue 30).
 */
function sortChanges(changes: Change[]): void {
  const keys = changes.map(sortKey);
  const distinct = [...new Set(keys)];
  const place = new Map<string, number>();
  const collated = collationKeys(distinct);
  let n: number;
  if (collated) {
    // One collation key per distinct string (the case of each letter is in it), sorted by the
    // engine's own string order, with no function of ours called per comparison.
    const byCollated = new Map<string, string>();
    for (let i = 0; i < distinct.length; i++) byCollated.set(collated[i]!, distinct[i]!);
    collated.sort();
    for (let i = 0; i < collated.length; i++) place.set(byCollated.get(collated[i]!)!, i);
    n = collated.length - 1;
  } else {
    const sorted = [...distinct].sort(collate);
    // Keys ICU finds equal (some strings not ASCII) share a place: the order of finding decides.
    n = 0;
    for (let i = 0; i < sorted.length; i++) {
      if (i > 0 && collate(sorted[i - 1]!, sorted[i]!) !== 0) n++;
      place.set(sorted[i]!, n);
    }
  }
  // A counting sort by rank: stable, linear.
  const ranks = new Uint32Array(changes.length);
  const starts = new Uint32Array(3 * (n + 1) + 1);
  for (let i = 0; i < changes.length; i++) {
    const rank = LEVEL_ORDER[changes[i]!.level] * (n + 1) + place.get(keys[i]!)!;
    ranks[i] = rank;
    starts[rank + 1]!++;
  }
  for (let r = 1; r < starts.length; r++) starts[r]! += starts[r - 1]!;
  const found = changes.slice();
  for (let i = 0; i < found.length; i++) changes[starts[ranks[i]!]!++] = found[i]!;
}

/** `Pet` for `#/components/schemas/Pet` of the root file; `file#/pointer` elsewhere. */
function schemaName(key: string, root: string): string {
  const [file, pointer = ''] = key.split('#');
  if (file === root && /^\/(components\/schemas|definitions)\/[^/]+$/.test(pointer)) return pointer.split('/').pop()!.replace(/~1/g, '/').replace(/~0/g, '~');
  return file === root ? `#${pointer}` : key;
}

/** The changes inside referenced schemas, each once, with the operations that reach it. */
function schemaChanges(schemas: SchemaDiff, root: string): Change[] {
  const changed: [string, SchemaChange[]][] = [];
  schemas.memo.forEach((list, key) => {
    if (list.length) changed.push([key, list]);
  });
  if (!changed.length) return [];
  const usedBy = new Map<string, string[]>();
  schemas.uses.forEach((tos, from) =>
    tos.forEach((to) => {
      (usedBy.get(to) ?? usedBy.set(to, []).get(to)!).push(from);
    }),
  );
  const out: Change[] = [];
  for (let k = 0; k < changed.length; k++) {
    const [key, list] = changed[k]!;
    // Up the graph of uses to the operations (the owners that are not schema keys).
    const seen = new Set([key]);
    const todo = [key];
    const operations = new Set<string>();
    while (todo.length) {
      const froms = usedBy.get(todo.pop()!);
      if (!froms) continue;
      for (let i = 0; i < froms.length; i++) {
        const from = froms[i]!;
        if (!from.includes('|')) operations.add(from);
        else if (!seen.has(from)) {
          seen.add(from);
          todo.push(from);
        }
      }
    }
    const [, newKey, dir] = key.split('|');
    const schema = schemaName(newKey!, root);
    const ops = [...operations].sort();
    for (let i = 0; i < list.length; i++) {
      const c = list[i]!;
      out.push({
        id: c.id,
        level: c.level,
        schema,
        where: `schema ${schema} (${dir})`,
        ...(c.field ? { field: c.field } : {}),
        operations: ops,
        message: c.text,
      });
    }
  }
  return out;
}

function describeScheme(s: any): string {
  return [s.type, s.scheme, s.in, s.name].filter(Boolean).join(' ') || 'none';
}
