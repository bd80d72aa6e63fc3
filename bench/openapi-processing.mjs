// OpenAPI processing figure: the time `docs serve` takes to process a large real-world-sized spec
// (PUT of its text until processingState is complete: upload, store, parse, validate, version
// written), against parsing and validating the same file with the chosen parser alone
// (@readme/openapi-parser `validate(path)`). Prints the ratio with its target; exits 1 on a miss.
//
//   node bench/openapi-processing.mjs [--quick]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.argv.includes('--quick');
const RUNS = QUICK ? 3 : 7;
const TARGET = 2.0; // processing may cost at most twice the parser's own parse + validate
const PATHS = QUICK ? 1200 : 2500;
const TOKEN = 'bench-openapi-token';

/** A spec shaped like big public APIs: many paths, shared parameters, schemas with $refs. */
function generateSpec(paths, version) {
  const schemas = {};
  const p = {};
  for (let i = 0; i < paths; i++) {
    const name = `Resource${i}`;
    schemas[name] = {
      type: 'object',
      description: `A resource of kind ${i}, with a description long enough to look like real documentation text.`,
      required: ['id', 'name'],
      properties: {
        id: { type: 'string', format: 'uuid', description: 'Unique identifier' },
        name: { type: 'string', maxLength: 255, description: 'Human readable name' },
        createdAt: { type: 'string', format: 'date-time' },
        tags: { type: 'array', items: { type: 'string' } },
        owner: { $ref: '#/components/schemas/Owner' },
        status: { type: 'string', enum: ['active', 'archived', 'deleted'] },
        size: { type: 'integer', minimum: 0 },
        parent: { $ref: `#/components/schemas/Resource${i % 20}` }, // shallow, and circular for the first 20, as real schemas are
      },
    };
    p[`/resources${i}/{id}`] = {
      parameters: [{ $ref: '#/components/parameters/Id' }],
      get: {
        operationId: `get${name}`,
        summary: `Get a ${name}`,
        tags: [`group${i % 40}`],
        parameters: [{ name: 'expand', in: 'query', schema: { type: 'boolean' } }],
        responses: {
          200: { description: 'The resource', content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
          404: { $ref: '#/components/responses/NotFound' },
        },
      },
      put: {
        operationId: `update${name}`,
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
        responses: {
          200: { description: 'Updated', content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
          404: { $ref: '#/components/responses/NotFound' },
        },
      },
      delete: { operationId: `delete${name}`, responses: { 204: { description: 'Deleted' }, 404: { $ref: '#/components/responses/NotFound' } } },
    };
  }
  schemas.Owner = { type: 'object', properties: { id: { type: 'string' }, email: { type: 'string', format: 'email' } } };
  schemas.Error = { type: 'object', required: ['message'], properties: { message: { type: 'string' }, code: { type: 'integer' } } };
  return {
    openapi: '3.0.3',
    info: { title: 'Generated large API', version },
    servers: [{ url: 'https://api.example.com/v1' }],
    paths: p,
    components: {
      schemas,
      parameters: { Id: { name: 'id', in: 'path', required: true, schema: { type: 'string' } } },
      responses: { NotFound: { description: 'Not found', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } },
    },
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function startServe(dataDir) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'run.js'), 'serve', '--port', '0', '--data', dataDir, '--quiet'], {
      env: { ...process.env, DOCS_BOOTSTRAP_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /API at (http:\/\/\S+)\/v1/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`docs serve exited ${code}: ${out}`)));
  });
}

async function api(url, method, path, body) {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'docs-bench-openapi-'));
  const texts = Array.from({ length: RUNS + 1 }, (_, i) => JSON.stringify(generateSpec(PATHS, `1.0.${i}`), null, 2));
  const file = join(dir, 'spec.json');
  writeFileSync(file, texts[0]);
  const size = (Buffer.byteLength(texts[0]) / 1048576).toFixed(1);

  // Baseline: the parser alone, on the same file (it reads and parses it itself).
  const { validate } = await import('@readme/openapi-parser');
  const parserTimes = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const t = performance.now();
    const r = await validate(file);
    if (!r.valid) throw new Error('generated spec is invalid: ' + JSON.stringify(r.errors).slice(0, 500));
    if (i > 0) parserTimes.push(performance.now() - t); // the first run warms up
  }

  const served = await startServe(join(dir, 'data'));
  const processTimes = [];
  try {
    const org = (await api(served.url, 'GET', '/v1/orgs')).items[0].id;
    const path = `/v1/orgs/${org}/openapi/large`;
    for (let i = 0; i < RUNS + 1; i++) {
      const t = performance.now();
      await api(served.url, 'PUT', path, { source: { text: texts[i] } });
      let spec;
      do {
        await new Promise((r) => setTimeout(r, 5));
        spec = await api(served.url, 'GET', path);
      } while (spec.processingState !== 'complete');
      if (spec.lastProcessErrorCode) throw new Error('processing failed: ' + JSON.stringify(spec.lastProcessedErrors).slice(0, 500));
      if (i > 0) processTimes.push(performance.now() - t);
    }
    const versions = await api(served.url, 'GET', `${path}/versions`);
    if (versions.count !== RUNS + 1) throw new Error(`expected ${RUNS + 1} versions, got ${versions.count}`);
  } finally {
    served.child.kill('SIGTERM');
    await new Promise((r) => served.child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }

  const parser = median(parserTimes);
  const processing = median(processTimes);
  const ratio = processing / parser;
  const pass = ratio <= TARGET;
  process.stdout.write(
    `  openapi processing of a ${size} MB spec (${PATHS} paths): ${ratio.toFixed(2)}x the parser alone  (target <= ${TARGET.toFixed(1)}x: ${pass ? 'pass' : 'FAIL'})  [processing ${processing.toFixed(0)} ms end to end, parser validate ${parser.toFixed(0)} ms; median of ${RUNS}]\n`,
  );
  if (!pass) process.exitCode = 1;
}

main().catch((err) => {
  process.stderr.write(`openapi-processing bench: ${err.stack ?? err}\n`);
  process.exitCode = 1;
});
