import { expect, test } from 'vitest';
import { serve } from '../../server/serve.js';
import { tempDir } from '../helpers/server.js';

// Issue 28 item 1: the first request after `docs serve` starts. Before it says it is ready, the
// server waits (a bounded time) for its workers' first passes and answers one request of its own,
// so that neither runs beside the first request a client sends (docs/manual/performance.md).

test('with settleMs, serve() returns once the workers settled and its own warm-up request was answered, unlogged', async () => {
  const lines: string[] = [];
  const served = await serve({ dataDir: tempDir(), port: 0, settleMs: 30_000, log: (l) => lines.push(l) });
  try {
    expect(served.settled).toEqual({ workers: true, warmUp: 200 });
    expect(lines).toEqual([]); // the warm-up is not in the log
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
  const served = await serve({ dataDir: tempDir(), port: 0, settleMs: 30_000, rateLimit: 1 });
  try {
    expect(served.settled?.warmUp).toBe(200);
    // The in-process CLI's token (the lock file's) still has its one request of the minute.
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const lock = JSON.parse(readFileSync(join(served.ctx.dataDir!, 'lock.json'), 'utf8'));
    const res = await fetch(`${served.url}/v1/user`, { headers: { authorization: `Bearer ${lock.token}` } });
    await res.text();
    expect(res.status).toBe(200);
  } finally {
    await served.close();
  }
}, 60_000);

test('the wait for the workers is bounded: past settleMs the server starts with them still running', async () => {
  // A store with a space: the indexer's first pass asks the search worker (a thread it starts) about it.
  const dataDir = tempDir();
  const first = await serve({ dataDir, port: 0 });
  const auth = { authorization: `Bearer ${first.bootstrapToken}`, 'content-type': 'application/json' };
  const orgs = (await (await fetch(`${first.url}/v1/orgs`, { headers: auth })).json()) as { items: { id: string }[] };
  const made = await fetch(`${first.url}/v1/orgs/${orgs.items[0]!.id}/spaces`, { method: 'POST', headers: auth, body: '{"title":"S"}' });
  expect(made.status).toBe(201);
  await made.text();
  await first.close();
  const served = await serve({ dataDir, port: 0, settleMs: 0 });
  try {
    expect(served.settled).toEqual({ workers: false, warmUp: 200 });
  } finally {
    await served.close();
  }
}, 60_000);
