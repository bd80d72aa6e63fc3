import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { serve } from '../../server/serve.js';
import { warmUp } from '../../server/warm-up.js';
import { tempDir } from '../helpers/server.js';

// Issue 28 item 1: the first request after `docs serve` starts ran Node's HTTP server, our handler,
// authentication and `invoke` for the first time. Before it says it is ready, the server answers
// one request of its own (server/warm-up.ts), kept out of the log and of any rate limit.

test('with warmUp, serve() returns once its own warm-up request was answered, unlogged', async () => {
  const lines: string[] = [];
  const served = await serve({ dataDir: tempDir(), port: 0, warmUp: true, log: (l) => lines.push(l) });
  try {
    expect(served.warmedUp).toBe(200);
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
  const served = await serve({ dataDir: tempDir(), port: 0, warmUp: true, rateLimit: 1 });
  try {
    expect(served.warmedUp).toBe(200);
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
  const seen: { headers: IncomingMessage['headers']; marked: boolean }[] = [];
  const server = createServer((req, res) => {
    seen.push({ headers: req.headers, marked: w.isWarmUp(req) });
    res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    expect(await w.run((server.address() as AddressInfo).port, '127.0.0.1', undefined)).toBe(200);
    expect(seen.map((s) => s.marked)).toEqual([true]);
    // The same header, sent again after the start (its secret learnt somehow): an ordinary request.
    expect(w.isWarmUp({ headers: seen[0]!.headers } as IncomingMessage)).toBe(false);
  } finally {
    server.close();
  }
});
