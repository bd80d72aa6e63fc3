import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { serve } from '../../server/serve.js';
import { quietAfterStart, WARM_UP_READS, WARM_UP_WRITE, warmUp, workerDeferral } from '../../server/warm-up.js';
import type { Context } from '../../src/kernel/context.js';
import { bodyValidatorRuntime } from '../../src/contract/validate.js';
import { kickProcessing } from '../../src/openapi/processor.js';
import { stemmerLoads } from '../../src/search/service.js';
import { workersDeferred } from '../../src/workers.js';
import { dataDirWithSpace, tempDir } from '../helpers/server.js';

// Issue 28 item 1: the first request after `docs serve` starts ran Node's HTTP server, our handler,
// authentication and `invoke` for the first time. Before it says it is ready, the server answers
// one request of its own (server/warm-up.ts), kept out of the log and of any rate limit, then a read
// of each area in process; the workers but the search indexer start after the first requests.

test('with warmUp, serve() returns once its own warm-up request was answered, unlogged', async () => {
  const lines: string[] = [];
  const served = await serve({ dataDir: tempDir(), port: 0, warmUp: true, log: (l) => lines.push(l) });
  try {
    expect(served.warmedUp?.[0]).toEqual({ read: 'GET /v1/user', status: 200 });
    expect(served.warmedUp?.[1]).toEqual({ read: 'PATCH /v1/spaces/{spaceId} (body refused)', status: 400 });
    expect(lines).toEqual([]); // the warm-up is not in the log, nor its reads
    const res = await fetch(`${served.url}/v1/user`, { headers: { authorization: `Bearer ${served.bootstrapToken}` } });
    expect(res.status).toBe(200);
    await res.text();
    expect(lines).toEqual([expect.stringMatching(/^GET \/v1\/user 200 /)]); // a client's request is
    // The warm-up's header is a secret of the process: another value hides nothing.
    await (await fetch(`${served.url}/health`, { headers: { 'x-docs-warm-up': 'guess' } })).text();
    expect(lines).toHaveLength(2);
  } finally {
    await served.close();
  }
}, 60_000);

test("the warm-up request is not counted against the session token's rate limit", async () => {
  const served = await serve({ dataDir: tempDir(), port: 0, warmUp: true, rateLimit: 1 });
  try {
    expect(served.warmedUp?.[0]?.status).toBe(200);
    // The in-process CLI's token (the lock file's) still has its one request of the minute.
    const lock = JSON.parse(readFileSync(join(served.ctx.dataDir!, 'lock.json'), 'utf8'));
    const res = await fetch(`${served.url}/v1/user`, { headers: { authorization: `Bearer ${lock.token}` } });
    await res.text();
    expect(res.status).toBe(200);
  } finally {
    await served.close();
  }
}, 60_000);

test('the warm-up mark holds only until the warm-up was answered', async () => {
  const w = warmUp();
  const seen: { url?: string; headers: IncomingMessage['headers']; marked: boolean; connection: number }[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    seen.push({ url: req.url, headers: req.headers, marked: w.isWarmUp(req), connection: connections });
    res.end('{}');
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    // No token (a store without an owner): the HTTP request only, no reads.
    expect(await w.run({} as Context, (server.address() as AddressInfo).port, '127.0.0.1', undefined)).toEqual([
      { read: 'GET /v1/user', status: 200 },
      { read: 'PATCH /v1/spaces/{spaceId} (body refused)', status: 200 },
    ]);
    // Two requests on one kept-alive connection, as clients send theirs: Node's HTTP server runs
    // its keep-alive paths on a connection's second request (docs/manual/performance.md, "First
    // requests"); the second with a body, read as every write's is.
    expect(seen.map((s) => s.marked)).toEqual([true, true]);
    // The GET with a query string, as lists' and searches' requests have: its parsing ran first on
    // the first client request that had one.
    expect(seen[0]!.url).toBe('/v1/user?warm-up=1');
    expect(seen.map((s) => [s.connection, s.headers.connection, s.headers['content-type']])).toEqual([
      [1, 'keep-alive', undefined],
      [1, 'keep-alive', 'application/json'],
    ]);
    // The same header, sent again after the start (its secret learnt somehow): an ordinary request.
    expect(w.isWarmUp({ headers: seen[0]!.headers } as IncomingMessage)).toBe(false);
  } finally {
    server.close();
  }
});

/** Every file of a directory (recursively) with its size and modification time. */
function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const st = statSync(join(dir, f));
    if (st.isFile()) out[f] = `${st.size} ${st.mtimeMs}`;
  }
  return out;
}

test("the warm-up reads one of each area of the owner's first organization and space, and changes nothing", async () => {
  const { dir } = await dataDirWithSpace('Warm');
  const before = files(join(dir, 'store'));
  const served = await serve({ dataDir: dir, port: 0, warmUp: true });
  try {
    expect(served.warmedUp).toEqual([
      { read: 'GET /v1/user', status: 200 },
      // A write's body, refused by its validator before anything runs: nothing written.
      { read: 'PATCH /v1/spaces/{spaceId} (body refused)', status: 400 },
      ...WARM_UP_READS.map((r) => ({ read: r.op, status: 200 })),
      { read: `${WARM_UP_WRITE} (rolled back)`, status: 200 },
      { read: `${WARM_UP_WRITE} (committed in scratch)`, status: 200 },
    ]);
    const generation = served.ctx.store.generation?.();
    // Again, on the running server: reads only, nothing committed, no file of the store written.
    await warmUp().run(served.ctx, served.port, '127.0.0.1', JSON.parse(readFileSync(join(dir, 'lock.json'), 'utf8')).token);
    expect(served.ctx.store.generation?.()).toBe(generation);
  } finally {
    await served.close();
  }
  expect(files(join(dir, 'store'))).toEqual(before);
}, 60_000);

test('with deferWorkers, the workers but the search indexer start once no request was in flight for quietMs', async () => {
  const saved = { ...workerDeferral };
  // quietMs long enough that a loaded machine's gap between two requests stays below it.
  Object.assign(workerDeferral, { quietMs: 1000, maxMs: 20_000 });
  const served = await serve({ dataDir: tempDir(), port: 0, deferWorkers: true });
  try {
    expect(workersDeferred(served.ctx)).toBe(true);
    // Requests one after another, for longer than quietMs: still waiting.
    const until = performance.now() + 1500;
    while (performance.now() < until) {
      await (await fetch(`${served.url}/health`)).text();
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(workersDeferred(served.ctx)).toBe(true);
    const quiet = performance.now();
    while (workersDeferred(served.ctx)) await new Promise((r) => setTimeout(r, 10));
    expect(performance.now() - quiet).toBeGreaterThanOrEqual(900);
  } finally {
    Object.assign(workerDeferral, saved);
    await served.close();
  }
  // Without it, they start with the server.
  const plain = await serve({ dataDir: tempDir(), port: 0 });
  try {
    expect(workersDeferred(plain.ctx)).toBe(false);
  } finally {
    await plain.close();
  }
}, 60_000);

test('the deferred workers start at maxMs under a steady load, and at once when work is kicked for one of them', async () => {
  const saved = { ...workerDeferral };
  Object.assign(workerDeferral, { quietMs: 5_000, maxMs: 300 });
  const served = await serve({ dataDir: tempDir(), port: 0, deferWorkers: true });
  try {
    const t0 = performance.now();
    while (workersDeferred(served.ctx)) await (await fetch(`${served.url}/health`)).text();
    expect(performance.now() - t0).toBeLessThan(5_000);
  } finally {
    await served.close();
  }
  Object.assign(workerDeferral, { quietMs: 5_000, maxMs: 10_000 });
  const kicked = await serve({ dataDir: tempDir(), port: 0, deferWorkers: true });
  try {
    expect(workersDeferred(kicked.ctx)).toBe(true);
    kickProcessing(kicked.ctx); // what an OpenAPI put does once its spec is stored
    expect(workersDeferred(kicked.ctx)).toBe(false);
  } finally {
    Object.assign(workerDeferral, saved);
    await kicked.close();
  }
}, 60_000);

test('quietAfterStart resolves when the server closes', async () => {
  const server = createServer((_, res) => res.end());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const saved = { ...workerDeferral };
  Object.assign(workerDeferral, { quietMs: 60_000, maxMs: 60_000 });
  try {
    const quiet = quietAfterStart(server);
    await new Promise<void>((r) => server.close(() => r()));
    await quiet;
  } finally {
    Object.assign(workerDeferral, saved);
  }
});

test("the warm-up loads what the body validators share, so that a fresh server's first write does not", async () => {
  bodyValidatorRuntime.loads = 0;
  const served = await serve({ dataDir: tempDir(), port: 0, warmUp: true });
  try {
    expect(bodyValidatorRuntime.loads).toBe(1);
  } finally {
    await served.close();
  }
  // Without the warm-up, nothing loads them before a write needs them.
  const plain = await serve({ dataDir: tempDir(), port: 0 });
  try {
    expect(bodyValidatorRuntime.loads).toBe(1);
  } finally {
    await plain.close();
  }
}, 60_000);

test("the warm-up loads the stemmer of a search's snippets, which the search indexer's warm-up search loaded beside the first requests", async () => {
  stemmerLoads.asked = 0;
  const served = await serve({ dataDir: tempDir(), port: 0, warmUp: true });
  try {
    expect(stemmerLoads.asked).toBe(1);
  } finally {
    await served.close();
  }
  // Without the warm-up, a start asks for it nowhere (an empty store: no search, none warmed).
  const plain = await serve({ dataDir: tempDir(), port: 0 });
  try {
    expect(stemmerLoads.asked).toBe(1);
  } finally {
    await plain.close();
  }
}, 60_000);
