import type { Context } from './context.js';
import type { Table } from '../store/port.js';

// The leases table (src/store/tables.ts), typed. The kernel sits below the store, so a cast (a type
// import only) rather than the store's `table()`.
export const Leases = 'leases' as Table<LeaseRecord, never>;

// Background jobs (OpenAPI processing, event delivery, translation runs) run in whichever
// process holds the store, and with a PostgreSQL store several `docs serve` processes do. On a
// store shared between processes a job runs under the backend's claim (PostgreSQL: a row locked
// FOR UPDATE SKIP LOCKED for as long as the job runs, freed when its process dies; see
// pg-backend.ts). Elsewhere it runs under a lease: a row taken in a store transaction, so two
// takers of one job are serialized by the store's commit; a process that dies leaves its lease
// to expire.

export interface LeaseRecord {
  id: string;
  owner: string;
  /** Epoch ms after which another process may take the job. */
  until: number;
}

export const LEASE_MS = 60_000;

/** Takes the lease of job `key` for `owner` if it is free, expired or already `owner`'s. */
export function takeLease(ctx: Context, key: string, owner: string, ms = LEASE_MS): Promise<boolean> {
  return ctx.store.write((tx) => {
    const now = ctx.clock.now().getTime();
    const held = tx.get(Leases, key);
    if (held && held.owner !== owner && held.until > now) return false;
    tx.put(Leases, { id: key, owner, until: now + ms });
    return true;
  });
}

export function dropLease(ctx: Context, key: string, owner: string): Promise<void> {
  return ctx.store.write((tx) => {
    if (tx.get(Leases, key)?.owner === owner) tx.delete(Leases, key);
  });
}

/**
 * Runs `fn` holding job `key`: the shared store's claim, or else its lease (renewed every third
 * of its length while `fn` runs, dropped after); resolves to false without running it when
 * another process holds the job.
 */
export async function withLease(ctx: Context, key: string, owner: string, fn: () => Promise<void>, ms = LEASE_MS): Promise<boolean> {
  if (ctx.store.claim) {
    const claim = await ctx.store.claim(key);
    if (!claim) return false;
    try {
      await fn();
    } finally {
      await claim.release();
    }
    return true;
  }
  if (!(await takeLease(ctx, key, owner, ms))) return false;
  const renew = setInterval(() => void takeLease(ctx, key, owner, ms).catch(() => {}), ms / 3);
  renew.unref();
  try {
    await fn();
  } finally {
    clearInterval(renew);
    await dropLease(ctx, key, owner).catch(() => {});
  }
  return true;
}

/** How long a worker waits before looking again at a job another process holds. */
export const HELD_RETRY_MS = 5_000;

/** Waits HELD_RETRY_MS (less if `signal` aborts: the worker is stopping). */
export function heldElsewhere(signal?: AbortSignal, ms = HELD_RETRY_MS): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    timer.unref();
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
