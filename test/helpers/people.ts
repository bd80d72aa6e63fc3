import { insertToken } from '../../src/auth/tokens.js';
import type { Context } from '../../src/kernel/context.js';
import { newId, newToken } from '../../src/kernel/ids.js';
import type { MemberRole } from '../../src/kernel/roles.js';
import { memberRowId } from '../../src/organizations/model.js';
import { Members } from '../../src/organizations/tables.js';
import { Users } from '../../src/users/tables.js';

/**
 * A new user with a token, written straight into the store (inviting members is another area's
 * operation); with `org`, also a member of that organization with `role`.
 */
export async function addUser(ctx: Context, org?: string, role: MemberRole = 'read'): Promise<{ userId: string; token: string }> {
  const token = newToken();
  const userId = newId();
  await ctx.store.write((tx) => {
    const now = ctx.clock.now();
    tx.put(Users, { id: userId, displayName: `User ${userId.slice(0, 4)}`, email: `${userId}@example.com`, createdAt: now.toISOString() });
    insertToken(tx, token, userId, 'test', now);
  });
  if (org) await addMember(ctx, org, userId, role);
  return { userId, token };
}

export async function addMember(ctx: Context, org: string, user: string, role: MemberRole): Promise<void> {
  await ctx.store.write((tx) => {
    tx.put(Members, { id: memberRowId(org, user), organization: org, user, role, joinedAt: ctx.clock.now().toISOString(), disabled: false, sso: false });
  });
}
