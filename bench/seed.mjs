// Seeds a large store in-process (through the store itself, so the files are exactly what the
// server writes): `orgs` organizations with `membersPerOrg` member rows each, drawn from a pool of
// `users` users, plus the bootstrap owner, organization and token.
import { dirBytes } from './lib.mjs';

// ShardStore.write loses a write issued in the same microtask run as the previous write's
// resolution (the drain loop has ended but `running` is only cleared in a later `.finally`), so
// it would never run and the process would exit with unsettled promises. Yield a macrotask
// between writes until that is fixed.
const settle = () => new Promise((r) => setImmediate(r));

export async function seedLargeStore(dir, { token, orgs = 200, membersPerOrg = 100, users = 2000, orgsPerWrite = 50 }) {
  const { openContext } = await import('../dist/src/open.js');
  const { bootstrap } = await import('../dist/src/auth/bootstrap.js');
  const { newId } = await import('../dist/src/kernel/ids.js');
  if (membersPerOrg > users) throw new Error('membersPerOrg must not exceed users');

  const ctx = await openContext(dir);
  try {
    await bootstrap(ctx, token);
    await settle();
    const t0 = Date.parse('2024-01-01T00:00:00.000Z');
    const iso = (i) => new Date(t0 + i * 1000).toISOString();

    const userIds = Array.from({ length: users }, () => newId());
    await ctx.store.write((tx) => {
      userIds.forEach((id, i) => tx.put('users', { id, displayName: `Bench User ${i}`, email: `user${i}@bench.example`, createdAt: iso(i) }));
    });
    await settle();

    const roles = ['admin', 'create', 'review', 'edit', 'comment', 'read'];
    let records = users;
    for (let start = 0; start < orgs; start += orgsPerWrite) {
      await ctx.store.write((tx) => {
        for (let o = start; o < Math.min(orgs, start + orgsPerWrite); o++) {
          const org = tx.put('organizations', {
            id: newId(),
            title: `Bench organization ${o}`,
            createdAt: iso(users + o),
            emailDomains: [],
            type: 'business',
            plan: 'free_2024',
            defaultRole: 'read',
            inviteLinks: true,
            mergeRules: { type: 'none' },
          });
          records++;
          for (let m = 0; m < membersPerOrg; m++) {
            const user = userIds[(o * membersPerOrg + m) % users];
            tx.put('members', {
              id: `${org.id}.${user}`,
              organization: org.id,
              user,
              role: roles[m % roles.length],
              joinedAt: iso(users + orgs + o * membersPerOrg + m),
              disabled: false,
              sso: false,
            });
            records++;
          }
        }
      });
      await settle();
    }
    return { records, ...dirBytes(dir) };
  } finally {
    await ctx.store.close();
  }
}
