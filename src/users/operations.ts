import { notFound } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import type { UserRecord } from './model.js';
import { presentUser } from './present.js';

export const getAuthenticatedUser = defineOperation('getAuthenticatedUser', async ({ ctx, caller }) => {
  const user = await ctx.store.read((tx) => tx.get<UserRecord>('users', caller.userId));
  if (!user) throw notFound('user not found');
  return { status: 200, body: presentUser(ctx, user) };
});

export const getUserById = defineOperation('getUserById', async ({ ctx, path }) => {
  const user = await ctx.store.read((tx) => tx.get<UserRecord>('users', path.userId));
  if (!user) throw notFound(`user ${path.userId} not found`);
  return { status: 200, body: presentUser(ctx, user) };
});
