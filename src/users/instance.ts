import type { Caller } from '../kernel/context.js';
import { forbidden, notFound } from '../kernel/errors.js';
import type { ReadTx } from '../store/port.js';
import type { UserRecord } from './model.js';
import { table } from '../store/port.js';
import { Users } from './tables.js';

/** The instance owner's row in the `meta` table (id `owner`). */
export const MetaOwner = table<OwnerMeta>('meta');

// Who the instance trusts beyond organizations (docs/manual/access.md#who-may-act-as-whom).
// - Instance owners: the bootstrap user (meta row `owner`, made with the store) and the users an
//   instance owner designated (`instanceOwner` on the user row). Only they, and each user for
//   themself, create, list or revoke a user's credentials; only they mark email addresses verified
//   and designate owners. An organization admin has no power over a user's account.
// - Verified email: this server sends no mail, so nothing proves an address but an instance
//   owner's word. The bootstrap user's address and those an instance owner marked verified count;
//   a user made as a side effect of an invitation, or one who accepted an invitation, does not.

/** The meta row naming the bootstrap user (written by src/auth/bootstrap.ts). */
export interface OwnerMeta {
  id: 'owner';
  user: string;
}

/** The user the store was bootstrapped for (never loses instance ownership). */
export const bootstrapOwner = (tx: ReadTx) => tx.get(MetaOwner, 'owner')?.user;

export function isInstanceOwner(tx: ReadTx, userId: string): boolean {
  return bootstrapOwner(tx) === userId || !!tx.get(Users, userId)?.instanceOwner;
}

export function isEmailVerified(tx: ReadTx, user: UserRecord): boolean {
  return !!user.emailVerified || bootstrapOwner(tx) === user.id;
}

/** 403 unless the caller is an instance owner; `action` names what was refused. */
export function requireInstanceOwner(tx: ReadTx, caller: Caller, action: string): void {
  if (!isInstanceOwner(tx, caller.userId))
    throw forbidden(
      `${action} needs an instance owner (the user docs serve was first started for, or one they designated with docs users update --instance-owner)`,
    );
}

/** The user with this email address, in any case (invites store addresses lowercased; others may not). */
export function userByEmail(tx: ReadTx, email: string): UserRecord | undefined {
  const e = email.trim();
  const exact = tx.find(Users, 'email', e)[0] ?? tx.find(Users, 'email', e.toLowerCase())[0];
  return exact ?? tx.all(Users).find((u) => u.email.toLowerCase() === e.toLowerCase());
}

/** A user by id or email address; 404 when there is none. */
export function findUser(tx: ReadTx, ref: string): UserRecord {
  const u = tx.get(Users, ref) ?? (ref.includes('@') ? userByEmail(tx, ref) : undefined);
  if (!u) throw notFound(`user ${ref} not found (give a user id or an email address; see docs members list)`);
  return u;
}
