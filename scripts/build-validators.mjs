// Precompiles the validators of every operation into CommonJS modules (ajv "standalone" code), so
// that no command and no first request loads or runs the ajv compiler: path and query parameters
// (small modules, one per operation) and request bodies (one per operation that has one; compiling
// a body schema at run time cost a write command 0.1-1.4 s, two thirds of its CPU). Same options
// as src/contract/validate.ts's engines; the formats come from one module both use.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ops = join(root, 'generated', 'contract', 'ops');
const out = join(root, 'generated', 'contract', 'params');
const bodies = join(root, 'generated', 'contract', 'bodies');
for (const dir of [out, bodies]) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
}
// The code caches of the validators replaced (src/contract/cached-module.ts): named by their
// source's hash, they would never be used again.
rmSync(join(root, 'generated', 'contract', 'cache'), { recursive: true, force: true });
// The generated body validators require the formats from here (generated/contract/formats.cjs).
copyFileSync(join(root, 'scripts', 'contract-formats.cjs'), join(root, 'generated', 'contract', 'formats.cjs'));
const { custom, sizes } = require('./contract-formats.cjs');
const standalone = require('ajv/dist/standalone').default;
const { _ } = require('ajv');

// Must match engine(dialect, coerce) in src/contract/validate.ts: parameters arrive as strings
// (coerced, defaults applied), bodies as JSON (neither).
function engine(dialect, coerce = true) {
  const Ajv = dialect === '2020-12' ? require('ajv/dist/2020').default : require('ajv').default;
  const ajv = new Ajv({
    strict: false,
    allErrors: false,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: coerce,
    validateFormats: true,
    code: { source: true, formats: _`require("../formats.cjs").formats` },
  });
  require('ajv-formats').default(ajv);
  for (const f of sizes) ajv.addFormat(f, true);
  for (const [name, f] of Object.entries(custom)) ajv.addFormat(name, f);
  return ajv;
}

// Must match paramsSchema() in src/contract/validate.ts.
const paramsSchema = (op, where) => {
  const ps = op.parameters.filter((p) => p.in === where);
  return {
    type: 'object',
    properties: Object.fromEntries(ps.map((p) => [p.name, p.schema])),
    required: ps.filter((p) => p.required || where === 'path').map((p) => p.name),
    // Components only when a parameter refers to one (they would be embedded in the code).
    ...(JSON.stringify(ps).includes('"$ref"') ? { components: op.components } : {}),
  };
};

let n = 0;
let skipped = 0;
let nBodies = 0;
for (const file of readdirSync(ops)) {
  const op = JSON.parse(readFileSync(join(ops, file), 'utf8'));
  try {
    const ajv = engine(op.dialect);
    ajv.addSchema(paramsSchema(op, 'path'), 'path');
    ajv.addSchema(paramsSchema(op, 'query'), 'query');
    writeFileSync(join(out, op.operationId + '.cjs'), standalone(ajv, { path: 'path', query: 'query' }));
    n++;
  } catch {
    skipped++; // e.g. a custom format standalone code cannot reference: compiled at run time instead
  }
  if (op.requestBody) {
    // Not caught: a body schema the build cannot compile would fail at run time too.
    const ajv = engine(op.dialect, false);
    writeFileSync(join(bodies, op.operationId + '.cjs'), standalone(ajv, ajv.compile({ ...op.requestBody.schema, components: op.components })));
    nBodies++;
  }
}
console.log(`validators: ${n} params precompiled${skipped ? `, ${skipped} left to run time` : ''}; ${nBodies} bodies`);
