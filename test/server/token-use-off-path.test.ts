import { expect, test } from 'vitest';
import { bootstrap } from '../../src/auth/bootstrap.js';
import { authenticate, hashToken, Tokens, tokenUsesWritten } from '../../src/auth/tokens.js';
import { openContext } from '../../src/open.js';

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
