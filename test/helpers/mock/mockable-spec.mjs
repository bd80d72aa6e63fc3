// Makes a copy of a @gitbook/api OpenAPI spec that Stoplight Prism 5 can serve (docs/manual/other-servers.md). What the CLI reads keeps its meaning; these change:
//  1. Schema references are inlined to a fixed depth (copies Name__d1, Name__d2, ...), deeper ones
//     cut: Prism dereferences everything up front, and the recursive Document / Revision schemas
//     either never finish (cycles) or expand to millions of nodes (minutes to start, then tens of
//     seconds to compile one request validator). In a response a cut array is empty (`maxItems: 0`:
//     no page without an id at the bottom of a tree) and a cut object a bare `{type}`; in a request
//     a cut is `{}` (anything), so a deep Document the CLI sends is not refused for the cut.
//  2. `nullable: true` beside a `$ref` (no `type`, 0.146.0's OrganizationBilling.endDate): ajv cannot
//     compile it and Prism then silently skips the whole response schema. The ref target is inlined
//     when it has a type, else `nullable` is dropped.
//  3. A delete that answers 205 (deleted) or 204 (nothing there) keeps its 205 only: Prism answers
//     the lowest 2xx, and the CLI rightly reports a 204 delete as "not found" (exit 3).
//  4. Lists lose their `next` (`{page}`): a static mock answers the same `next.page` forever, which
//     the CLI rightly stops as a loop (test/transport/other-server.test.ts covers loops).
//  5. Request schemas lose `propertyNames` and string `pattern`s: Prism's sampler ignores both
//     (answers keys property1, "string" for a color), and its request validation then refuses the
//     object the CLI sends back (sites customize reads, changes and writes the whole object).
//  6. With a file URL, every URL of an answer (format uri, a *URL field) is that URL, which the
//     mock serves: downloads (files, PDFs, content pull) stay on this machine.
//  7. Paths get their `/v1` prefix: the spec puts it in `servers` (`{host}/v1`), which Prism ignores
//     when matching, so `/v1/orgs` would be a 404.

const SCHEMA = '#/components/schemas/';
const CUT = 'x-cut';

/** Default depth: a response object, its fields, and two more levels keep their shape. */
export const DEPTH = 3;

function clone(v) {
  return v === undefined ? v : JSON.parse(JSON.stringify(v));
}

function hasSchemaRef(o) {
  if (!o || typeof o !== 'object') return false;
  if (typeof o.$ref === 'string' && o.$ref.startsWith(SCHEMA)) return true;
  return Object.values(o).some(hasSchemaRef);
}

/** @param {'req' | 'res'} side */
export function mockableSpec(input, depth = DEPTH, fileUrl = undefined) {
  const spec = clone(input);
  const schemas = spec.components?.schemas ?? {};
  const out = {};
  const stats = { copies: 0, cut: 0, nullableFixed: 0 };

  const target = (name) => {
    let s = schemas[name];
    for (let i = 0; s && typeof s.$ref === 'string' && s.$ref.startsWith(SCHEMA) && i < 10; i++) s = schemas[s.$ref.slice(SCHEMA.length)];
    return s ?? {};
  };
  // A reference past the depth: the whole schema when it refers to nothing else (a Timestamp stays
  // a date-time string), else a stub (see 1. above).
  const stub = (name, side) => {
    const t = target(name);
    if (!hasSchemaRef(t)) return rewrite(clone(t), depth + 1, side); // refers to nothing: ends
    stats.cut++;
    const description = `(cut at depth ${depth}: ${name})`;
    if (side === 'req') return { description, [CUT]: true };
    if (t.type && t.type !== 'object') return { type: t.type, ...(t.nullable ? { nullable: true } : {}), description, [CUT]: true };
    // An object keeps its fields that refer to nothing (id, title, ...), from allOf parts too, and
    // from the first alternative of a union, as the static mock answers the first.
    const properties = {};
    const required = [];
    const merge = (x, n = 0) => {
      x = resolve(x);
      if (n > 5 || !x) return;
      for (const [k, v] of Object.entries(x.properties ?? {})) {
        const r = resolve(v);
        if (hasSchemaRef(r)) continue;
        properties[k] = clone(r);
        if ((x.required ?? []).includes(k)) required.push(k);
      }
      for (const part of x.allOf ?? []) merge(part, n + 1);
      if (x.oneOf?.[0] ?? x.anyOf?.[0]) merge(x.oneOf?.[0] ?? x.anyOf?.[0], n + 1);
    };
    merge(t);
    return { type: 'object', properties, ...(required.length ? { required } : {}), ...(t.nullable ? { nullable: true } : {}), description, [CUT]: true };
  };
  const resolve = (x) => (x && typeof x.$ref === 'string' && x.$ref.startsWith(SCHEMA) ? target(x.$ref.slice(SCHEMA.length)) : x);
  const copyAt = (name, d, side) => {
    const key = `${name}${side === 'req' ? '__req' : ''}${d === 0 ? '' : `__d${d}`}`;
    if (!(key in out)) {
      out[key] = {};
      stats.copies++;
      out[key] = rewrite(clone(schemas[name] ?? {}), d + 1, side);
    }
    return key;
  };
  const isCut = (x) => Boolean(x?.[CUT]) || (Array.isArray(x?.oneOf ?? x?.anyOf) && (x.oneOf ?? x.anyOf).every((y) => y?.[CUT]));

  function rewrite(o, d, side) {
    if (!o || typeof o !== 'object') return o;
    if (typeof o.$ref === 'string' && o.$ref.startsWith(SCHEMA)) {
      const name = o.$ref.slice(SCHEMA.length);
      if (o.nullable === true && o.type === undefined) {
        stats.nullableFixed++;
        const t = target(name);
        const { $ref, nullable, ...rest } = o;
        if (t.type !== undefined && !hasSchemaRef(t)) return rewrite({ ...clone(t), ...rest, nullable: true }, d, side);
        o = { $ref, ...rest };
      }
      if (d > depth) return stub(name, side);
      return { ...o, $ref: SCHEMA + copyAt(name, d, side) };
    }
    for (const k of Object.keys(o)) o[k] = rewrite(o[k], d, side);
    if (o.nullable === true && o.type === undefined) {
      stats.nullableFixed++;
      delete o.nullable;
    }
    // Two cut alternatives are the same stub: a value matches both, and a oneOf of them refuses
    // everything (Prism's 422 on a valid request). anyOf keeps them as alternatives.
    if (Array.isArray(o.oneOf) && o.oneOf.filter((x) => x?.[CUT]).length > 1) {
      o.anyOf = o.oneOf;
      delete o.oneOf;
    }
    // Prism's sampler ignores propertyNames (answers keys property1, property2) and patterns, which
    // its request validation then refuses when the CLI sends back an object it read (sites customize).
    if (side === 'req' && o.type === 'object' && o.propertyNames && typeof o.propertyNames === 'object' && !Array.isArray(o.propertyNames))
      delete o.propertyNames;
    if (side === 'req' && typeof o.pattern === 'string') delete o.pattern; // same: it answers "string" for a color
    // In answers, a value its pattern accepts where "string" is not one: the CLI checks what it
    // sends back (sites customize PUTs the customization it read) against the contract.
    if (side === 'res' && typeof o.pattern === 'string' && o.example === undefined && !new RegExp(o.pattern).test('string')) {
      const sample = ['#1f6feb', '/string', 'integration:string:string', 'integration:string'].find((v) => new RegExp(o.pattern).test(v));
      if (sample) o.example = sample;
    }
    if (side === 'res' && o.type === 'array' && isCut(o.items)) {
      o.maxItems = 0;
      delete o.minItems;
    }
    if (fileUrl && side === 'res') {
      if (o.type === 'string' && o.format === 'uri') o.example = fileUrl;
      for (const [k, v] of Object.entries(o.properties ?? {})) if (/url$/i.test(k) && v?.type === 'string' && !v.enum) v.example = fileUrl;
    }
    if (o.properties?.next?.properties?.page) {
      delete o.properties.next;
      if (Array.isArray(o.required)) o.required = o.required.filter((r) => r !== 'next');
    }
    return o;
  }

  const operation = (op) => {
    if (!op || typeof op !== 'object') return op;
    if (op.responses?.['205'] && op.responses['204']) delete op.responses['204'];
    const { responses, ...request } = op;
    return { ...rewrite(request, 0, 'req'), ...(responses ? { responses: rewrite(responses, 0, 'res') } : {}) };
  };
  const paths = {};
  for (const [p, item] of Object.entries(spec.paths ?? {})) {
    const next = {};
    for (const [k, v] of Object.entries(item))
      next[k] = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'].includes(k) ? operation(v) : rewrite(v, 0, 'req');
    paths['/v1' + p] = next; // '/' as '/v1/': the path official clients request (getApiInformation)
  }
  if (fileUrl) {
    // What every URL of an answer points to (a file's downloadURL, a PDF's url): bytes from the mock.
    const { pathname } = new URL(fileUrl);
    paths[pathname] = {
      get: {
        operationId: 'mockFile',
        security: [],
        responses: { 200: { description: 'bytes', content: { 'application/pdf': { schema: { type: 'string' }, example: '%PDF-1.4 mock' } } } },
      },
    };
  }
  spec.paths = paths;
  for (const [kind, group] of Object.entries(spec.components ?? {})) {
    if (kind === 'schemas') continue;
    const side = kind === 'responses' || kind === 'headers' ? 'res' : 'req';
    for (const k of Object.keys(group)) group[k] = rewrite(group[k], 0, side);
  }
  // Only the copies reached from a path: Prism would dereference the others for nothing.
  if (spec.components) spec.components.schemas = out;
  spec.servers = [{ url: 'http://127.0.0.1' }];
  return { spec, stats };
}
