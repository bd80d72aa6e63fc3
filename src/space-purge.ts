import type { Context } from './kernel/context.js';
import type { WriteTx } from './store/port.js';
import { releaseAuditRings } from './audit/record.js';
import { removeSpaceInstallations } from './git/installations.js';
import { removeSpaceFromSites } from './sites/site-spaces.js';
import { deleteSpaceContent } from './spaces/content-rows.js';
import type { SpaceRecord } from './spaces/model.js';
import { isExpired, SWEEP_INTERVAL_MS } from './spaces/retention.js';
import { Spaces } from './spaces/tables.js';
import { Organizations } from './organizations/tables.js';
import { orgSpaces } from './tree/order.js';

// A deleted space past its retention (src/spaces/retention.ts) purged for good, with what points
// at it in other areas: above the areas (ARCHITECTURE.md), as it reaches into spaces/ and sites/.

/** Removes a space for good: its metadata row, every row of its content shard, its place on sites, its Git Sync installation. */
export function purgeSpace(tx: WriteTx, space: SpaceRecord): void {
  // Audit events kept in the space's shards move to the organization's log first, or those
  // shards would outlive the space (src/audit/record.ts).
  releaseAuditRings(tx, space.organization, `space/${space.id}`, Date.now());
  deleteSpaceContent(tx, space.id);
  removeSpaceFromSites(tx, space.id);
  removeSpaceInstallations(tx, space.id);
  tx.delete(Spaces, space.id);
}

/** Purges those of `ids` past their retention at `now` (checked again: one may have been restored since). */
export function purgeExpired(tx: WriteTx, ids: string[], now: Date): number {
  let n = 0;
  for (const id of ids) {
    // Checked again inside the write: it may have been restored since it was found.
    const s = tx.get(Spaces, id);
    if (s && isExpired(s, now)) {
      purgeSpace(tx, s);
      n++;
    }
  }
  return n;
}

/** Purges every deleted space past its retention; returns how many. */
export async function purgeExpiredSpaces(ctx: Context): Promise<number> {
  const now = ctx.clock.now();
  // From each organization's summary of its spaces (deletedAt is in it; every space is in an
  // organization, organizations are never removed): reading every space's row loaded the shard
  // of every space, 2,000 of them at 200,000 pages, at each start of `docs serve` (beside its
  // first requests) and every minute after.
  const ids = await ctx.store.read((tx) =>
    tx.all(Organizations).flatMap((o) =>
      orgSpaces(tx, o.id)
        .filter((s) => isExpired(s, now))
        .map((s) => s.id),
    ),
  );
  return ids.length ? ctx.store.write((tx) => purgeExpired(tx, ids, now)) : 0;
}

/**
 * The sweeper of `docs serve`: purges expired spaces now and then every `everyMs`. The timer is
 * unref'd (it never keeps the process alive); `stop` ends it before the store closes. A sweep
 * that fails (store unavailable) is simply tried again at the next tick.
 */
export function startSweeper(ctx: Context, everyMs = SWEEP_INTERVAL_MS): { stop(): void; sweep(): Promise<number> } {
  let running: Promise<number> | undefined;
  const sweep = () =>
    (running ??= purgeExpiredSpaces(ctx)
      .catch(() => 0)
      .finally(() => (running = undefined)));
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  void sweep();
  return { stop: () => clearInterval(timer), sweep };
}
