import type { Context } from './kernel/context.js';
import { deferredWorkerStart, deferWorkerStart } from './kernel/worker-registry.js';
import { startDelivery, stopDelivery } from './integrations/delivery.js';
import { startConversationProcessing, stopConversationProcessing } from './conversations/processor.js';
import { closeSearchIndexes } from './search/service.js';
import { startSearchIndexer, stopSearchIndexer } from './search/indexer.js';
import { startProcessing, stopProcessing } from './openapi/processor.js';
import { startTranslationRuns, stopTranslationRuns } from './translations/runner.js';
import { startImportRuns, stopImportRuns } from './imports/runner.js';
import { startSiteScans, stopSiteScans } from './site-context/scan-worker.js';

// Background work that runs in the process holding the store (`docs serve`, or an in-process
// command that asks for it), listed here like the operations in operations.ts.
interface Worker {
  name: string;
  /** Only in a long-lived server (`docs serve`): not in an in-process command that runs the workers for what it waits on. */
  server?: true;
  /**
   * Started at once even when the others wait (startWorkers `after`), and given `after` for what
   * it defers itself: the search indexer, whose thread docs serve starts before ready and whose
   * first pass (the spaces' revisions checked, the first search warmed: src/search/service.ts
   * `warmSearch`) waits for `after`.
   */
  atOnce?: true;
  start(ctx: Context, after?: Promise<unknown>): void;
  stop(ctx: Context): Promise<void>;
}

export const WORKERS: Worker[] = [
  { name: 'openapi processing', start: startProcessing, stop: stopProcessing },
  { name: 'integration event delivery (development mode)', start: startDelivery, stop: stopDelivery },
  { name: 'conversations processing', start: startConversationProcessing, stop: stopConversationProcessing },
  { name: 'translation runs', start: startTranslationRuns, stop: stopTranslationRuns },
  { name: 'import runs', start: startImportRuns, stop: stopImportRuns },
  // Site scans: findings and topics of the sites whose questions, records or content changed (docs/manual/site-findings.md).
  { name: 'site scans', start: startSiteScans, stop: stopSiteScans },
  // Search indexes kept at each space's current revision as commits happen (src/search/indexer.ts;
  // a search still brings a space that is behind up to date first); their files closed with the store.
  // Server only: its first pass checks every space, which `docs openapi put --wait` run in process
  // must not wait for at its end.
  {
    name: 'search indexes',
    server: true,
    atOnce: true,
    start: startSearchIndexer,
    stop: async (ctx) => {
      await stopSearchIndexer(ctx);
      await closeSearchIndexes(ctx);
    },
  },
];

/**
 * Starts the workers: all of them in `docs serve` (`server`), the others in an in-process command.
 * With `after` (docs serve), the search indexer at once with its first pass once `after` resolves,
 * and the others once `after` resolves: their first passes (a scan of waiting work each, site scans
 * reading every site's inputs, the indexer's revision check and warm-up search) ran beside a fresh
 * server's first requests (docs/manual/performance.md, "First requests"). Work kicked for one of
 * them before then (a request that made some) starts them at once.
 */
export function startWorkers(ctx: Context, opts: { server?: boolean; after?: Promise<unknown> } = {}): void {
  const all = WORKERS.filter((w) => opts.server || !w.server);
  if (!opts.after) {
    for (const w of all) w.start(ctx);
    return;
  }
  // Registered where a kick finds it (src/kernel/worker-registry.ts): work before `after` starts them.
  const start = () => {
    if (deferredWorkerStart(ctx) !== start) return; // started, or stopped meanwhile
    deferWorkerStart(ctx, undefined);
    for (const w of all) if (!w.atOnce) w.start(ctx);
  };
  deferWorkerStart(ctx, start);
  for (const w of all) if (w.atOnce) w.start(ctx, opts.after);
  opts.after.then(start, start);
}

/** Whether some of this store's workers wait for their deferred start (tests). */
export function workersDeferred(ctx: Context): boolean {
  return deferredWorkerStart(ctx) !== undefined;
}

/** Stops every worker; work they abandon is left in the store for the next process. */
export async function stopWorkers(ctx: Context): Promise<void> {
  deferWorkerStart(ctx, undefined); // a deferred start no longer runs
  await Promise.all(WORKERS.map((w) => w.stop(ctx)));
}
