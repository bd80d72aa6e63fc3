import { expect, test } from 'vitest';
import { bootstrap } from '../../src/auth/bootstrap.js';
import { authenticate, hashToken, insertToken, tokenUseWrite, Tokens, tokenUsesWritten } from '../../src/auth/tokens.js';
import { openContext } from '../../src/open.js';
import { serve } from '../../server/serve.js';
import { tempDir } from '../helpers/server.js';

// Issue 28 item 1: the first request of each token each minute records its use (lastUsedAt), a
// durable commit. The request does not wait for it (60–150 ms of the first request after
// `docs serve` starts, on a loaded machine); `tokens list` waits for the uses recorded so far.

test('authenticate answers while the lastUsedAt write is still uncommitted; the write then lands', async () => {
  const ctx = await openContext(undefined);
  try {
    const boot = await bootstrap(ctx, 'off-path-token');
    expect(boot).toBeDefined();
    // Every write from here waits for the gate: a commit that has not happened yet.
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const write = ctx.store.write.bind(ctx.store);
    ctx.store.write = ((fn: Parameters<typeof write>[0]) => gate.then(() => write(fn))) as typeof ctx.store.write;
    const answered = await Promise.race([
      authenticate(ctx, 'off-path-token').then((c) => c.userId),
      new Promise((r) => setTimeout(() => r('waited for the write'), 2000)),
    ]);
    expect(answered).toBe(boot!.userId);
    expect(await ctx.store.read((tx) => tx.get(Tokens, hashToken('off-path-token'))?.lastUsedAt)).toBeUndefined();
    open();
    ctx.store.write = write;
    await tokenUsesWritten();
    const used = await ctx.store.read((tx) => tx.get(Tokens, hashToken('off-path-token'))?.lastUsedAt);
    expect(Math.abs(Date.parse(used ?? '') - ctx.clock.now().getTime())).toBeLessThan(60_000);
  } finally {
    await ctx.store.close();
  }
});

test("in docs serve, a token's use is written after tokenUseWrite.delayMs, with the uses recorded meanwhile, in one commit", async () => {
  const saved = tokenUseWrite.delayMs;
  tokenUseWrite.delayMs = 60_000;
  const ctx = await openContext(undefined);
  ctx.deferTokenUses = true; // as server/serve.ts sets it
  try {
    const boot = await bootstrap(ctx, 'batched-a');
    await ctx.store.write((tx) => insertToken(tx, 'batched-b', boot!.userId, 'b', ctx.clock.now()));
    let writes = 0;
    const write = ctx.store.write.bind(ctx.store);
    ctx.store.write = ((fn: Parameters<typeof write>[0]) => (writes++, write(fn))) as typeof ctx.store.write;
    await authenticate(ctx, 'batched-a');
    await authenticate(ctx, 'batched-b');
    // Not started with the requests: a fresh server's first commit landed on the requests after them.
    await new Promise((r) => setTimeout(r, 50));
    expect(writes).toBe(0);
    await tokenUsesWritten(); // tokens list: written now, not after the delay
    expect(writes).toBe(1);
    const used = await ctx.store.read((tx) => ['batched-a', 'batched-b'].map((t) => tx.get(Tokens, hashToken(t))?.lastUsedAt));
    for (const u of used) expect(Math.abs(Date.parse(u ?? '') - ctx.clock.now().getTime())).toBeLessThan(60_000);
    ctx.store.write = write;
  } finally {
    tokenUseWrite.delayMs = saved;
    await ctx.store.close();
  }
});

test("docs serve's close writes the uses still waiting for their write", async () => {
  const saved = tokenUseWrite.delayMs;
  tokenUseWrite.delayMs = 60_000;
  const dir = tempDir();
  try {
    const served = await serve({ dataDir: dir, port: 0 });
    const token = served.bootstrapToken!;
    const res = await fetch(`${served.url}/v1/user`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    await res.text();
    await served.close();
    const ctx = await openContext(dir);
    try {
      expect(await ctx.store.read((tx) => tx.get(Tokens, hashToken(token))?.lastUsedAt)).toBeDefined();
    } finally {
      await ctx.store.close();
    }
  } finally {
    tokenUseWrite.delayMs = saved;
  }
}, 60_000);

test('elsewhere (an in-process command, which exits once its output is written) the use is written at once', async () => {
  const saved = tokenUseWrite.delayMs;
  tokenUseWrite.delayMs = 60_000;
  const ctx = await openContext(undefined);
  try {
    await bootstrap(ctx, 'at-once');
    let writes = 0;
    const write = ctx.store.write.bind(ctx.store);
    ctx.store.write = ((fn: Parameters<typeof write>[0]) => (writes++, write(fn))) as typeof ctx.store.write;
    await authenticate(ctx, 'at-once');
    await new Promise((r) => setTimeout(r, 50));
    expect(writes).toBe(1);
    ctx.store.write = write;
    expect(await ctx.store.read((tx) => tx.get(Tokens, hashToken('at-once'))?.lastUsedAt)).toBeDefined();
  } finally {
    tokenUseWrite.delayMs = saved;
    await ctx.store.close();
  }
});
