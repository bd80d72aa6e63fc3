import { expect, test } from 'vitest';
import { bootstrap } from '../../src/auth/bootstrap.js';
import { authenticate, tokenUsesWritten } from '../../src/auth/tokens.js';
import { openContext } from '../../src/open.js';
import { Users } from '../../src/users/tables.js';
import { addUser } from '../helpers/people.js';

// authenticate() reads a token's row once per store generation (src/auth/tokens.ts `known`): every
// request of a busy token read the token and its user before. Any commit reads them again, so a
// user deleted (or a token revoked: test/server/kept-answers.test.ts) is refused at once.

test('a token is read once per store generation; the user deleted, it is refused at once', async () => {
  const ctx = await openContext(undefined);
  try {
    await bootstrap(ctx, 'known-owner-token');
    const u = await addUser(ctx);
    let reads = 0;
    const read = ctx.store.read.bind(ctx.store);
    ctx.store.read = ((fn: Parameters<typeof read>[0]) => (reads++, read(fn))) as typeof read;
    expect((await authenticate(ctx, u.token)).userId).toBe(u.userId);
    await tokenUsesWritten(); // the first use is recorded: a commit
    reads = 0;
    expect((await authenticate(ctx, u.token)).userId).toBe(u.userId);
    expect((await authenticate(ctx, u.token)).userId).toBe(u.userId);
    expect(reads).toBe(1);
    await ctx.store.write((tx) => tx.delete(Users, u.userId));
    await expect(authenticate(ctx, u.token)).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(authenticate(ctx, 'never-issued')).rejects.toMatchObject({ kind: 'unauthenticated' });
  } finally {
    await ctx.store.close();
  }
});

test('a token known at this generation is still refused once it expires, with nothing committed', async () => {
  const { ManualClock } = await import('../../src/kernel/clock.js');
  const { insertToken } = await import('../../src/auth/tokens.js');
  const clock = new ManualClock();
  const ctx = await openContext(undefined, { clock });
  try {
    await bootstrap(ctx, 'known-owner-token-2');
    const u = await addUser(ctx);
    await ctx.store.write((tx) => insertToken(tx, 'expiring-known', u.userId, 'x', clock.now(), new Date(clock.now().getTime() + 60_000).toISOString()));
    expect((await authenticate(ctx, 'expiring-known')).userId).toBe(u.userId);
    await tokenUsesWritten();
    expect((await authenticate(ctx, 'expiring-known')).userId).toBe(u.userId);
    let reads = 0;
    const read = ctx.store.read.bind(ctx.store);
    ctx.store.read = ((fn: Parameters<typeof read>[0]) => (reads++, read(fn))) as typeof read;
    const generation = ctx.store.generation!();
    expect((await authenticate(ctx, 'expiring-known')).userId).toBe(u.userId);
    clock.advance(60_000);
    await expect(authenticate(ctx, 'expiring-known')).rejects.toThrow(/expired/);
    expect([reads, ctx.store.generation!()]).toEqual([0, generation]);
  } finally {
    await ctx.store.close();
  }
});
