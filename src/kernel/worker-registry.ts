import { contextBase } from './context.js';
import type { Context } from './context.js';

/** A background worker of one store: woken when there is work, stopped with the store. */
export interface Worker {
  kick(): void;
  stop(): Promise<void>;
  /** Resolves when nothing runs (tests). */
  idle(): Promise<void>;
}

/** The deferred start of a store's workers (src/workers.ts `startWorkers` with `after`), run by the first kick that finds none. */
const deferredStarts = new WeakMap<Context, () => void>();

/** Registers (or, with undefined, forgets) what starts `ctx`'s deferred workers: a kick before it runs it. */
export function deferWorkerStart(ctx: Context, start: (() => void) | undefined): void {
  if (start) deferredStarts.set(contextBase(ctx), start);
  else deferredStarts.delete(contextBase(ctx));
}

/** What starts `ctx`'s deferred workers, while they wait for it. */
export const deferredWorkerStart = (ctx: Context): (() => void) | undefined => deferredStarts.get(contextBase(ctx));

/**
 * One worker per open store (context), made on start: `start` creates it if needed and wakes it
 * (taking up work an earlier process left), `kick` wakes it only if this process runs one,
 * `stop` stops and forgets it, `idle` waits for it. Shared by every area's worker.
 */
export function workerRegistry<W extends Worker>(make: (ctx: Context) => W) {
  const workers = new WeakMap<Context, W>();
  return {
    start(ctx: Context): void {
      let w = workers.get(contextBase(ctx));
      if (!w) workers.set(contextBase(ctx), (w = make(contextBase(ctx))));
      w.kick();
    },
    kick(ctx: Context): void {
      const w = workers.get(contextBase(ctx));
      if (w) w.kick();
      else deferredStarts.get(contextBase(ctx))?.(); // work came before a deferred start: start now
    },
    async stop(ctx: Context): Promise<void> {
      const w = workers.get(contextBase(ctx));
      workers.delete(contextBase(ctx));
      await w?.stop();
    },
    async idle(ctx: Context): Promise<void> {
      await workers.get(contextBase(ctx))?.idle();
    },
  };
}

/** How long after a failed scan (the store unavailable: PostgreSQL away) a worker looks again. */
export const SCAN_RETRY_MS = 2_000;

/**
 * Runs a worker's scan (a store read of waiting work) tracked in `settled` like its runs, so that
 * `idle` and `stop` wait for it too. A failed scan is logged under DEBUG and `retry` (the worker's
 * kick, which does nothing once stopped) is called after SCAN_RETRY_MS: work waiting in the store
 * is taken up again once the store is back, with no new kick from a request.
 */
export function trackScan(settled: Set<Promise<void>>, label: string, scan: () => Promise<void>, retry?: () => void, retryMs = SCAN_RETRY_MS): void {
  const p: Promise<void> = scan()
    .catch((err) => {
      if (process.env.DEBUG) console.error(`${label}:`, err);
      if (retry) setTimeout(retry, retryMs).unref();
    })
    .finally(() => settled.delete(p));
  settled.add(p);
}
