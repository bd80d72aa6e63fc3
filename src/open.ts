import { systemClock, type Clock } from './kernel/clock.js';
import type { Context } from './kernel/context.js';
import { DocsError } from './kernel/errors.js';
import type { ShardBackend } from './store/backend.js';
import { FileBackend, type FileBackendOptions } from './store/file-backend.js';
import { MemoryBackend } from './store/memory-backend.js';
import { ShardStore } from './store/shard-store.js';
import { TABLES } from './store/tables.js';

export const DEFAULT_PORT = 7780;
export const DEFAULT_BASE_URL = `http://127.0.0.1:${DEFAULT_PORT}`;

export const isPostgresUrl = (s: string | undefined): s is string => !!s && /^postgres(ql)?:\/\//i.test(s);

/**
 * The backend for a store location: a PostgreSQL URL (`postgres://...`; `?schema=NAME` picks the
 * schema, default `docs`) or a data directory, or memory when neither is given. The pg driver is
 * loaded only for a PostgreSQL store, so other commands never pay for it.
 */
export async function openBackend(
  location: string | undefined,
  opts: Pick<FileBackendOptions, 'statAtOpen' | 'syncReads' | 'keepStrayTemps'> = {},
): Promise<ShardBackend> {
  if (!location) return new MemoryBackend();
  if (!isPostgresUrl(location)) return new FileBackend(location, opts);
  const url = new URL(location);
  const schema = url.searchParams.get('schema') ?? 'docs';
  url.searchParams.delete('schema');
  const { PgBackend } = await import('./store/pg-backend.js');
  return new PgBackend(url.toString(), { schema });
}

export interface OpenOptions {
  clock?: Clock;
  baseUrl?: string;
  /** A PostgreSQL URL: the rows live there, and `dir` keeps only file bytes (blobs, PDFs, OpenAPI documents). */
  store?: string;
  /** A data directory's files: checked by size at open (`docs serve`), read synchronously (a process with one caller). See FileBackendOptions. */
  statAtOpen?: FileBackendOptions['statAtOpen'];
  syncReads?: FileBackendOptions['syncReads'];
  keepStrayTemps?: FileBackendOptions['keepStrayTemps'];
}

/** A context on the data directory `dir` (lowdb files), on PostgreSQL (`store`), or in memory. */
export async function openContext(dir: string | undefined, opts: OpenOptions = {}): Promise<Context> {
  if (opts.store && !isPostgresUrl(opts.store))
    throw new DocsError('invalid', `--store: ${opts.store} is not a postgres:// URL (a data directory is given with --data)`);
  let store: ShardStore;
  try {
    store = await ShardStore.open(
      await openBackend(opts.store ?? dir, { statAtOpen: opts.statAtOpen, syncReads: opts.syncReads, keepStrayTemps: opts.keepStrayTemps }),
      TABLES,
    );
  } catch (err: any) {
    if (!opts.store || err instanceof DocsError) throw err;
    const where = new URL(opts.store);
    where.password = '';
    throw new DocsError('unavailable', `the PostgreSQL store at ${where.host}${where.pathname} cannot be opened: ${err.message}`, { cause: err });
  }
  return { store, clock: opts.clock ?? systemClock, baseUrl: opts.baseUrl ?? DEFAULT_BASE_URL, sessionTokens: new Map(), dataDir: dir };
}
