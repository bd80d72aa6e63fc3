// A Stoplight Prism mock of a @gitbook/api spec on 127.0.0.1 (an ephemeral port), for tests:
//   node test/helpers/mock/prism-mock.mjs SPEC.json [DEPTH]
// prints "listening http://127.0.0.1:PORT" once it answers, and stops when its parent goes away
// (its stdin closes). The spec is first made servable (mockable-spec.mjs: docs/manual/other-servers.md).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { createServer as createNetServer } from 'node:net';
import { mockableSpec } from './mockable-spec.mjs';

const require = createRequire(import.meta.url);
const { getHttpOperationsFromSpec } = require('@stoplight/prism-http');
const { createServer } = require('@stoplight/prism-http-server');
const { createLogger } = require('@stoplight/prism-core');

const [specPath, depth] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'docs-prism-'));
const file = join(dir, 'openapi.json');
// The port is chosen first: the answers' URLs point to the mock itself (mockable-spec.mjs, 6.).
const port = await new Promise((resolve, reject) => {
  const probe = createNetServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
  probe.on('error', reject);
});
const { spec } = mockableSpec(
  JSON.parse(readFileSync(specPath, 'utf8')),
  depth ? Number(depth) : undefined,
  `http://127.0.0.1:${port}/mock-files/export.pdf?name=export.pdf`,
);
writeFileSync(file, JSON.stringify(spec));
const operations = await getHttpOperationsFromSpec(file);
rmSync(dir, { recursive: true, force: true });
const logger = createLogger('MOCK', { level: process.env.PRISM_LOG ?? 'silent' });
const server = createServer(operations, {
  cors: false,
  components: { logger },
  config: {
    mock: { dynamic: false }, // static: examples, else deterministic values from the schemas
    checkSecurity: true, // a call without its bearer token is a 401, as from the real service
    validateRequest: true, // a request outside the contract is a 422 naming what is wrong
    validateResponse: true,
    errors: false,
    isProxy: false,
    upstreamProxy: undefined,
  },
});
const address = await server.listen(port, '127.0.0.1');
process.stdout.write(`listening ${address.replace('0.0.0.0', '127.0.0.1')}\n`);
process.stdin.resume();
process.stdin.on('end', () => server.close().finally(() => process.exit(0)));
