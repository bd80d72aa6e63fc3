import { mintScopedToken } from '../auth/scope.js';
import { invalid, notFound } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { requireInstanceOwner } from './instance.js';
import type { UserRecord } from './model.js';
import { presentUser } from './present.js';
import { Users } from './tables.js';

export const getAuthenticatedUser = defineOperation('getAuthenticatedUser', async ({ ctx, caller }) => {
  const user = await ctx.store.read((tx) => tx.get(Users, caller.userId));
  if (!user) throw notFound('user not found');
  return { status: 200, body: presentUser(ctx, user) };
});

export const getUserById = defineOperation('getUserById', async ({ ctx, path }) => {
  const user = await ctx.store.read((tx) => tx.get(Users, path.userId));
  if (!user) throw notFound(`user ${path.userId} not found`);
  return { status: 200, body: presentUser(ctx, user) };
});

/**
 * PATCH /v1/users/{userId}: a user's profile (displayName, photoURL), changed by that user or
 * an instance owner (src/users/instance.ts): an organization admin has no power over an account.
 */
export const updateUserById = defineOperation('updateUserById', async ({ ctx, caller, path, body }) => {
  const patch = body as { displayName?: string; photoURL?: string };
  const user = await ctx.store.write((tx) => {
    const u = tx.get(Users, path.userId);
    if (!u) throw notFound(`user ${path.userId} not found`);
    if (u.id !== caller.userId) requireInstanceOwner(tx, caller, `changing the profile of user ${path.userId} (only they or an instance owner may)`);
    const next: UserRecord = { ...u };
    if (patch.displayName !== undefined) {
      const name = patch.displayName.trim();
      if (!name) throw invalid('displayName: must not be blank');
      next.displayName = name;
    }
    if (patch.photoURL !== undefined) next.photoURL = photoUrl(patch.photoURL);
    return tx.put(Users, next);
  });
  return { status: 200, body: presentUser(ctx, user) };
});

/** A photo is shown by browsers (the app views): only an absolute http(s) URL, never javascript: or data:. */
function photoUrl(raw: string): string {
  let ok = false;
  try {
    ok = raw.length <= 2048 && ['http:', 'https:'].includes(new URL(raw).protocol);
  } catch {}
  if (!ok) throw invalid('photoURL: must be an http(s) URL of at most 2048 characters');
  return raw;
}

// A short-lived token for GitBook's in-app notifications client (docs/manual/access.md#notifications-tokens):
// here it is a scoped token (an hour, revocable like any token) that reads its own user and
// nothing else, since this server has no notifications service.
export const createUserNotificationsToken = defineOperation('createUserNotificationsToken', async ({ ctx, caller }) => {
  const { token } = await ctx.store.write((tx) => {
    if (!tx.get(Users, caller.userId)) throw notFound('user not found');
    return mintScopedToken(tx, ctx, caller.userId, { kind: 'notifications', scopes: [] }, 'notifications');
  });
  return { status: 200, body: { token } };
});
