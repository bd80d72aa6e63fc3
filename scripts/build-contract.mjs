// Precomputes the contract at build time so that neither the CLI nor the server parses the
// 1.2 MB spec at start-up: one small JSON file per operation (its method, path, parameters,
// request and response schemas, with only the component schemas it reaches) plus a route index.
// Sources: @gitbook/api 0.146.0 (the reference) and, for the operations it lacks, the latest.
import { readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'generated', 'contract');
const load = (pkg) => JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'spec', 'openapi.json'), 'utf8'));
const pinned = { spec: load('gitbook-api-0146'), source: '@gitbook/api@0.146.0' };
const latest = { spec: load('gitbook-api-latest'), source: '@gitbook/api@' + JSON.parse(readFileSync(join(root, 'node_modules/gitbook-api-latest/package.json'), 'utf8')).version };
// Operations taken from the latest spec because 0.146.0 lacks them (README "Contract").
const FROM_LATEST = ['createOrganization', 'updateChangeRequestContent'];
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

function deref(spec, node) {
  while (node && node.$ref) {
    const parts = node.$ref.replace(/^#\//, '').split('/');
    node = parts.reduce((o, k) => o[k], spec);
  }
  return node;
}

// OpenAPI 3.0 `nullable` is not JSON Schema: turn it into a type union (and null in enums)
// so one standard validator (ajv) reads both spec versions the same way.
function normalize(schema) {
  if (Array.isArray(schema)) return schema.map(normalize);
  if (!schema || typeof schema !== 'object') return schema;
  const outSchema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'nullable' || k === 'example' || k === 'examples' || k === 'discriminator' || k.startsWith('x-')) continue;
    outSchema[k] = k === 'properties' || k === 'patternProperties' || k === '$defs' || k === 'definitions'
      ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, normalize(s)]))
      : normalize(v);
  }
  if (schema.nullable === true) {
    if (outSchema.type) outSchema.type = [].concat(outSchema.type, 'null');
    if (outSchema.enum && !outSchema.enum.includes(null)) outSchema.enum = [...outSchema.enum, null];
    if (!outSchema.type && !outSchema.enum) return { anyOf: [outSchema, { type: 'null' }] };
  }
  return outSchema;
}

function closure(spec, schema) {
  const seen = {};
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    if (typeof node.$ref === 'string') {
      const name = node.$ref.split('/').pop();
      if (!seen[name]) {
        seen[name] = true;
        const target = spec.components.schemas[name];
        seen[name] = normalize(target);
        visit(target);
      }
    }
    for (const v of Object.values(node)) visit(v);
  };
  visit(schema);
  return seen;
}

function build({ spec, source }, path, method, op, shared) {
  const params = [...(shared || []), ...(op.parameters || [])].map((p) => deref(spec, p));
  const parameters = params.map((p) => ({ name: p.name, in: p.in, required: !!p.required, schema: normalize(p.schema || {}) }));
  let requestBody;
  if (op.requestBody) {
    const rb = deref(spec, op.requestBody);
    const [contentType, media] = Object.entries(rb.content || {})[0] || [];
    requestBody = { required: !!rb.required, contentType, schema: normalize(media?.schema || {}) };
  }
  const responses = {};
  for (const [status, r0] of Object.entries(op.responses || {})) {
    const r = deref(spec, r0);
    const [contentType, media] = Object.entries(r.content || {})[0] || [];
    responses[status] = { contentType: contentType || null, schema: media?.schema ? normalize(media.schema) : null, headers: Object.keys(r.headers || {}) };
  }
  const all = { parameters, requestBody, responses };
  return {
    operationId: op.operationId, method: method.toUpperCase(), path, source,
    dialect: spec.openapi.startsWith('3.1') ? '2020-12' : 'draft-07',
    deprecated: !!op.deprecated, summary: op.summary || '',
    ...all,
    components: { schemas: closure(spec, all) },
  };
}

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'ops'), { recursive: true });
const routes = [];
for (const src of [pinned, latest]) {
  for (const [path, item] of Object.entries(src.spec.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      const wanted = src === pinned ? !FROM_LATEST.includes(op.operationId) : FROM_LATEST.includes(op.operationId);
      if (!wanted) continue;
      const art = build(src, path, method, op, item.parameters);
      writeFileSync(join(out, 'ops', op.operationId + '.json'), JSON.stringify(art));
      routes.push([art.method, path, op.operationId]);
    }
  }
}
for (const id of FROM_LATEST) if (!routes.some((r) => r[2] === id)) throw new Error(`${id} missing from ${latest.source}`);
writeFileSync(join(out, 'routes.json'), JSON.stringify(routes));
// Every other operation of either spec, [method, path, operationId, packages]: the server answers
// those with 501 naming the operation (not implemented), never 404, which a client could not
// tell from a missing resource. A path in neither spec stays 404.
const known = new Set(routes.map((r) => r[2]));
const others = new Map();
for (const src of [pinned, latest]) {
  for (const [path, item] of Object.entries(src.spec.paths)) {
    for (const method of METHODS) {
      const id = item[method]?.operationId;
      if (!id || known.has(id)) continue;
      const key = `${method} ${path} ${id}`;
      if (others.has(key)) others.get(key)[3].push(src.source);
      else others.set(key, [method.toUpperCase(), path, id, [src.source]]);
    }
  }
}
writeFileSync(join(out, 'other-routes.json'), JSON.stringify([...others.values()]));
console.log(`contract: ${routes.length} operations, ${others.size} more of either spec -> ${out}`);
