import type { Schema } from '../contract/types.js';
import { apiUrl, type Context } from '../kernel/context.js';
import type { UserRecord } from './model.js';

/** The contract's User object. */
export function presentUser(ctx: Context, u: UserRecord): Schema<'User'> {
  return {
    object: 'user' as const,
    id: u.id,
    displayName: u.displayName,
    email: u.email,
    ...(u.photoURL ? { photoURL: u.photoURL } : {}),
    urls: { location: apiUrl(ctx, `/users/${u.id}`) },
  };
}
