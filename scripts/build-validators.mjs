// Precompiles the path and query parameter validators of every operation into small CommonJS
// modules (ajv "standalone" code), so that a CLI command without a body never loads or runs the
// ajv compiler at start-up. Body validators stay compiled on first use (most bodies are large
// schemas and only writes need them). Same options as src/contract/validate.ts's param engine.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ops = join(root, 'generated', 'contract', 'ops');
const out = join(root, 'generated', 'contract', 'params');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const standalone = require('ajv/dist/standalone').default;

function engine(dialect) {
  const Ajv = dialect === '2020-12' ? require('ajv/dist/2020').default : require('ajv').default;
  const ajv = new Ajv({ strict: false, allErrors: false, coerceTypes: 'array', useDefaults: true, validateFormats: true, code: { source: true } });
  require('ajv-formats').default(ajv);
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
}
console.log(`params validators: ${n} precompiled${skipped ? `, ${skipped} left to run time` : ''}`);
