import type { Context } from './kernel/context.js';
import type { ReadTx } from './store/port.js';
import { isExpired } from './spaces/retention.js';
import { Spaces } from './spaces/tables.js';

// The check on access of src/space-purge.ts, apart from it: every read of a space's content asks
// it, and a purge (nearly never) reaches into sites/, git/ and audit/, whose modules (with the
// site conditions' expression parser) are loaded only then, not by every command reading a space.

/**
 * The check on access: a space past its retention is purged before anything reads it, so it is
 * gone whether or not the sweeper has run (the CLI in-process has no sweeper).
 */
export async function purgeIfExpired(ctx: Context, spaceId: string): Promise<void> {
  await purgingIfExpired(ctx, spaceId);
}

/**
 * Inside a read: is the space deleted and past its retention (to be purged before it is read)?
 * The clock is read only for a deleted space. A read that answers no can go on and read the space
 * in the same transaction; one that answers yes calls purgeIfExpired and reads again.
 */
export function dueForPurge(tx: ReadTx, ctx: Context, spaceId: string): boolean {
  const s = tx.get(Spaces, spaceId);
  return s?.deletedAt !== undefined && isExpired(s, ctx.clock.now());
}

/**
 * `purgeIfExpired`'s check, kept cheap for the most frequent reads: one store read, and no clock
 * read nor write unless the space is deleted (nearly never). Resolves once any purge is done.
 */
export async function purgingIfExpired(ctx: Context, spaceId: string): Promise<unknown> {
  const s = await ctx.store.read((tx) => tx.get(Spaces, spaceId));
  if (s?.deletedAt === undefined) return undefined; // not deleted: no clock read
  const now = ctx.clock.now();
  if (!isExpired(s, now)) return undefined;
  const { purgeExpired } = await import('./space-purge.js');
  return ctx.store.write((tx) => purgeExpired(tx, [spaceId], now));
}
