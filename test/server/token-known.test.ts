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
