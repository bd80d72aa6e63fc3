import { systemClock, type Clock } from './kernel/clock.js';
import type { Context } from './kernel/context.js';
import { FilePersistence, MemoryPersistence } from './store/persistence.js';
import { ShardStore } from './store/shard-store.js';
import { TABLES } from './store/tables.js';

export const DEFAULT_PORT = 7780;
export const DEFAULT_BASE_URL = `http://127.0.0.1:${DEFAULT_PORT}`;

/** A context on the data directory `dir` (lowdb files), or in memory when `dir` is undefined. */
export async function openContext(dir: string | undefined, opts: { clock?: Clock; baseUrl?: string } = {}): Promise<Context> {
  const store = await ShardStore.open(dir ? new FilePersistence(dir) : new MemoryPersistence(), TABLES);
  return { store, clock: opts.clock ?? systemClock, baseUrl: opts.baseUrl ?? DEFAULT_BASE_URL, sessionTokens: new Map(), dataDir: dir };
}
