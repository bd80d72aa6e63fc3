import type { Context } from './kernel/context.js';
import { deliveryIdle, startDelivery, stopDelivery } from './integrations/delivery.js';
import { conversationsIdle, startConversationProcessing, stopConversationProcessing } from './conversations/processor.js';
import { closeSearchIndexes } from './search/service.js';
import { searchIndexerIdle, startSearchIndexer, stopSearchIndexer } from './search/indexer.js';
import { processingIdle, startProcessing, stopProcessing } from './openapi/processor.js';
import { startTranslationRuns, stopTranslationRuns, translationsIdle } from './translations/runner.js';
import { importsIdle, startImportRuns, stopImportRuns } from './imports/runner.js';
import { siteScansIdle, startSiteScans, stopSiteScans } from './site-context/scan-worker.js';

// Background work that runs in the process holding the store (`docs serve`, or an in-process
// command that asks for it), listed here like the operations in operations.ts.
interface Worker {
  name: string;
  /** Only in a long-lived server (`docs serve`): not in an in-process command that runs the workers for what it waits on. */
  server?: true;
  start(ctx: Context): void;
  stop(ctx: Context): Promise<void>;
  /** Resolves once it has nothing to do (its first pass over the store done, and what that found). */
  idle(ctx: Context): Promise<void>;
}

export const WORKERS: Worker[] = [
  { name: 'openapi processing', start: startProcessing, stop: stopProcessing, idle: processingIdle },
  { name: 'integration event delivery (development mode)', start: startDelivery, stop: stopDelivery, idle: deliveryIdle },
  { name: 'conversations processing', start: startConversationProcessing, stop: stopConversationProcessing, idle: conversationsIdle },
  { name: 'translation runs', start: startTranslationRuns, stop: stopTranslationRuns, idle: translationsIdle },
  { name: 'import runs', start: startImportRuns, stop: stopImportRuns, idle: importsIdle },
  // Site scans: findings and topics of the sites whose questions, records or content changed (docs/manual/site-findings.md).
  { name: 'site scans', start: startSiteScans, stop: stopSiteScans, idle: siteScansIdle },
  // Search indexes kept at each space's current revision as commits happen (src/search/indexer.ts;
  // a search still brings a space that is behind up to date first); their files closed with the store.
  // Server only: its first pass checks every space, which `docs openapi put --wait` run in process
  // must not wait for at its end.
  {
    name: 'search indexes',
    server: true,
    start: startSearchIndexer,
    idle: searchIndexerIdle,
    stop: async (ctx) => {
      await stopSearchIndexer(ctx);
      await closeSearchIndexes(ctx);
    },
  },
];

/** Starts the workers: all of them in `docs serve` (`server`), the others in an in-process command. */
export function startWorkers(ctx: Context, opts: { server?: boolean } = {}): void {
  for (const w of WORKERS) if (opts.server || !w.server) w.start(ctx);
}

/**
 * Resolves once every worker started has nothing to do, or after `boundMs`, whichever comes first
 * (true when they all settled). `docs serve` waits for this before it says it is ready: the
 * workers' first passes (the search worker's thread, the indexer's check of every space, the
 * shards their reads load) then no longer run beside the first requests (issue 28 item 1), and
 * the bound keeps a large store's start short (its passes go on after it).
 */
export async function workersSettled(ctx: Context, boundMs: number, opts: { server?: boolean } = {}): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), boundMs)));
  const all = Promise.all(WORKERS.filter((w) => opts.server || !w.server).map((w) => w.idle(ctx).catch(() => {}))).then(() => true as const);
  try {
    return await Promise.race([all, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** Stops every worker; work they abandon is left in the store for the next process. */
export async function stopWorkers(ctx: Context): Promise<void> {
  await Promise.all(WORKERS.map((w) => w.stop(ctx)));
}
