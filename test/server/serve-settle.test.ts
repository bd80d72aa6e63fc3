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

test('the wait for the workers is bounded: past settleMs the server starts with them still running', async () => {
  const served = await serve({ dataDir: tempDir(), port: 0, settleMs: 0 });
  try {
    expect(served.settled).toEqual({ workers: false, warmUp: 200 });
  } finally {
    await served.close();
  }
}, 60_000);
