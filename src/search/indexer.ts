import { contextBase, type Context } from '../kernel/context.js';
import { Organizations } from '../organizations/tables.js';
import { orgSpaces } from '../tree/order.js';
import { warmSearch } from './service.js';

// The search indexer: the background worker (src/workers.ts) that keeps every space's index at
// its current revision as commits happen, so that a search finds its indexes current and only
// reads (the first organization-wide search of a 200,000-page organization no longer builds
// them). After each commit (the store's `generation()` moved: this process's commits and those
// heard from other processes) it reads the spaces' revisions and brings the indexes that are
// behind up to date, incrementally (src/search/indexes.ts `ensure`: only the pages that changed
// are indexed again). On start (in docs serve, once its first requests were answered) it does the
// same for every space: an old store without index files gets them built in the background while
// searches answer as before (a search of a space still behind waits for that space's update,
// shared with the indexer's, never done twice).

/** Bounds (tests may lower them). */
export const indexerLimits = {
  /** How often the store's generation is looked at (a commit is indexed this long after, at most, plus the work). */
  pollMs: 200,
  /** Without `generation()` (no promise from the store), how often every space is looked at. */
  fullMs: 5_000,
};

/** Work counters (tests and measurements). */
export const indexerStats = { passes: 0, spacesBehind: 0 };

class Indexer {
  private seen = -1;
  private lastFull = 0;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private waiters: (() => void)[] = [];
  /** Organizations whose search paths this indexer warmed (once each, after its first pass over them). */
  private readonly warmed = new Set<string>();
  /** The first pass waits for `start`'s `after`. */
  private deferred = false;

  constructor(private readonly ctx: Context) {}

  /**
   * Runs the first pass now, or once `after` resolves (docs serve: once no request has been in
   * flight for a moment, server/warm-up.ts `quietAfterStart`). Its main-thread work, the spaces'
   * revisions read from the thread and the warm-up search (~7 ms of CPU on a one-space store),
   * landed on whichever of a fresh server's first requests ran 50–300 ms after ready
   * (docs/manual/performance.md, "First requests"). A search before then checks and brings its
   * own spaces up to date as always; `idle()` runs the pass at once.
   */
  start(after?: Promise<unknown>) {
    if (!after) return this.schedule(0);
    this.deferred = true;
    const go = () => {
      if (!this.deferred) return; // begun by idle(), or stopped
      this.deferred = false;
      this.schedule(0);
    };
    after.then(go, go);
  }

  /** Whether the first pass still waits (tests). */
  get waiting(): boolean {
    return this.deferred;
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.pass()
        .catch(() => {}) // derived data: a failed pass is tried again at the next commit or start
        .finally(() => {
          this.running = undefined;
          this.schedule(indexerLimits.pollMs);
        });
    }, ms);
    // Background work keeps no process alive, unless someone waits for it (`idle`).
    if (!this.waiters.length) this.timer.unref();
  }

  /** Has anything been committed since the last pass? */
  private due(): boolean {
    const gen = this.ctx.store.generation?.();
    if (gen === undefined) return Date.now() - this.lastFull >= indexerLimits.fullMs;
    return gen !== this.seen;
  }

  private async pass(): Promise<void> {
    if (!this.due()) return this.settle();
    this.seen = this.ctx.store.generation?.() ?? -1;
    this.lastFull = Date.now();
    indexerStats.passes++;
    const byOrg = await this.ctx.store.read((tx) => {
      const m = new Map<string, { id: string; revision: string }[]>();
      for (const o of tx.all(Organizations)) {
        // From the organization's summary (src/store/summaries.ts): no space shard read per pass.
        const all = orgSpaces(tx, o.id);
        if (all.length)
          m.set(
            o.id,
            all.filter((s) => !s.deletedAt).map((s) => ({ id: s.id, revision: s.revision })),
          );
      }
      return m;
    });
    const { indexesOf } = await import('./indexes.js');
    const indexes = indexesOf(this.ctx);
    for (const [org, spaces] of byOrg) {
      if (this.stopped) return;
      const behind = await indexes.behind(org, spaces);
      indexerStats.spacesBehind += behind.length;
      // One space at a time: the indexer is background work, a search's own update goes first.
      for (const s of behind) {
        if (this.stopped) return;
        await indexes.retrying(org, () => indexes.ensure(org, [s])).catch(() => {});
      }
      // The index holds the live spaces only, so that its ranking (bm25's counts over the whole
      // index) is what an index built from scratch for them gives.
      if (!this.stopped) await indexes.sweep(org, new Set(spaces.map((s) => s.id)));
      if (!this.stopped && !this.warmed.has(org) && (await warmSearch(this.ctx, org, spaces).catch(() => true))) this.warmed.add(org);
    }
    if (!this.due()) this.settle();
  }

  private settle() {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves once every commit so far is indexed (tests, the bench's seeding). */
  idle(): Promise<void> {
    if (!this.running && !this.due()) return Promise.resolve();
    return new Promise((r) => {
      this.waiters.push(r);
      this.deferred = false; // waited for: the first pass runs now
      if (!this.running && this.timer === undefined) this.schedule(0);
      else this.timer?.ref();
    });
  }

  async stop() {
    this.stopped = true;
    this.deferred = false;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    this.settle();
  }
}

const indexers = new WeakMap<Context, Indexer>();

/**
 * Starts keeping the search indexes of this store current in this process (docs serve); with
 * `firstPassAfter`, its first pass waits for that promise (Indexer.start).
 */
export function startSearchIndexer(ctx: Context, firstPassAfter?: Promise<unknown>): void {
  const base = contextBase(ctx);
  if (indexers.has(base)) return;
  const x = new Indexer(base);
  indexers.set(base, x);
  x.start(firstPassAfter);
}

/** Whether this context's indexer waits for its first pass (`startSearchIndexer`'s `firstPassAfter`; tests). */
export function searchIndexerWaiting(ctx: Context): boolean {
  return indexers.get(contextBase(ctx))?.waiting ?? false;
}

/** Stops the indexer (its current space's update finishes: an index is never left half written). */
export async function stopSearchIndexer(ctx: Context): Promise<void> {
  const base = contextBase(ctx);
  const x = indexers.get(base);
  indexers.delete(base);
  await x?.stop();
}

/** Resolves once the indexer of this context has indexed every commit so far (at once if none runs). */
export async function searchIndexerIdle(ctx: Context): Promise<void> {
  await indexers.get(contextBase(ctx))?.idle();
}
