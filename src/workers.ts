import type { Context } from './kernel/context.js';
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
  start(ctx: Context): void;
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
    start: startSearchIndexer,
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

/** Stops every worker; work they abandon is left in the store for the next process. */
export async function stopWorkers(ctx: Context): Promise<void> {
  await Promise.all(WORKERS.map((w) => w.stop(ctx)));
}
