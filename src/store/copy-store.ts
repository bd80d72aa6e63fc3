// `docs migrate`: copies a whole store from one place to another (a data directory or a
// PostgreSQL schema, either way), shard by shard, in one commit of the destination.
//
// The source is opened through the engine first (ShardStore.open), which brings an older layout
// up to date, so what is copied is always the current layout, catalog included. A source
// directory is held (src/store/lock.ts) for the whole copy, so no server or command writes it
// meanwhile. PostgreSQL has no such lock: a source schema is read twice and the copy refused if
// any shard changed in between (stop its servers first). The destination must hold no shard; it
// receives every shard in ONE backend commit (a manifest on disk, a transaction in PostgreSQL), so
// a failure leaves it empty; it is then reopened through the engine and compared shard by shard.
//
// File bytes (blobs, parsed OpenAPI documents, PDFs) are not in the shards but in the files/,
// openapi/ and pdf/ folders of a data directory, or of the `--blobs` directory of the servers of
// a PostgreSQL store. They are copied when both ends are directories, or when `blobs` names the
// PostgreSQL side's directory; otherwise the summary says where they are.

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DocsError } from '../kernel/errors.js';
import { isPostgresUrl, openBackend } from '../open.js';
import { LOG_PREFIX, ShardConflict, type ShardBackend, type ShardData } from './backend.js';
import { stageFile, syncDir } from './durable-file.js';
import { tryLock, type Acquired } from './lock.js';
import { ShardStore } from './shard-store.js';
import { TABLES } from './tables.js';

/** The folders of a data directory (or of a `--blobs` directory) holding file bytes. */
export const BLOB_FOLDERS = ['files', 'openapi', 'pdf'] as const;

/** Shards read per load: the copy holds every shard for its one commit, but reads in steps. */
const LOAD_BATCH = 500;

export interface CopyOptions {
  /** A data directory or a postgres://...[?schema=NAME] URL. */
  from: string;
  /** A data directory or a postgres://...[?schema=NAME] URL; must hold no store. */
  to: string;
  /** The PostgreSQL side's file-bytes directory (`docs serve --blobs`): copied to or from. */
  blobs?: string;
}

export interface CopySummary {
  from: string;
  to: string;
  /** Shards copied (catalog, directories and segments included). */
  shards: number;
  /** Their serialized size, in bytes. */
  bytes: number;
  /** File bytes copied (when both sides are directories, or with `blobs`), else a sentence saying where they are. */
  blobs: { copied: true; from: string; to: string; files: number; bytes: number } | { copied: false; note: string };
}

/** A store location for messages: the directory, or the URL without its password. */
export function describeLocation(location: string): string {
  if (!isPostgresUrl(location)) return location;
  const u = new URL(location);
  u.password = '';
  return u.toString().replace(/\/\/([^@/]*)@/, (_, user) => (user ? `//${user}@` : '//'));
}

/** Where a PostgreSQL URL points: host, database and schema (two URLs naming one store compare equal). */
function pgIdentity(location: string): string {
  const u = new URL(location);
  return `${u.hostname}:${u.port || 5432}${u.pathname}#${u.searchParams.get('schema') ?? 'docs'}`;
}

function hold(dir: string, role: 'source' | 'destination'): Acquired & { ok: true } {
  const got = tryLock(dir);
  if (got.ok) return got;
  const who = got.holder.url ? `docs serve at ${got.holder.url}` : 'another docs process';
  throw new DocsError('conflict', `the ${role} data directory ${dir} is held by ${who} (pid ${got.holder.pid}): stop it, then run docs migrate again`);
}

/**
 * A shard's digest. A log's (backend.ts LOG_PREFIX) is of its rows by id: PostgreSQL loads a log
 * in the order its rows were appended, a data directory by their order (logOrder), which two
 * writes committed out of their events' order tell apart; the rows are what must come through.
 */
const digest = (key: string, data: ShardData) => {
  const text = key.startsWith(LOG_PREFIX)
    ? JSON.stringify(Object.entries(data).map(([table, rows]) => [table, Object.entries(rows).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]))
    : JSON.stringify(data);
  return createHash('sha256').update(text).digest('base64');
};

/** Opens a backend, turning a PostgreSQL failure into a readable error. */
async function openAt(location: string): Promise<ShardBackend> {
  const backend = await openBackend(location);
  try {
    await backend.open();
  } catch (err: any) {
    await backend.close().catch(() => {});
    throw new DocsError('unavailable', `${describeLocation(location)} cannot be opened: ${err.message}`, { cause: err });
  }
  return backend;
}

/** Every shard of `backend` with its version, read `LOAD_BATCH` at a time. */
async function readAll(backend: ShardBackend, keys: string[]) {
  const shards = new Map<string, { data: ShardData; version: number }>();
  for (let i = 0; i < keys.length; i += LOAD_BATCH) {
    for (const [k, s] of await backend.load(keys.slice(i, i + LOAD_BATCH))) {
      // A key listed but gone by the time it is read (version 0): not part of the store any more.
      if (s.version !== 0 || Object.keys(s.data).length) shards.set(k, { data: s.data, version: s.version });
    }
  }
  return shards;
}

/** Copies the files under `from/<folder>` for each blob folder into `to/<folder>`, durably; existing files of the same size are kept. */
async function copyBlobs(from: string, to: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  const walk = async (src: string, dst: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(src, { withFileTypes: true });
    } catch (err: any) {
      if (err.code === 'ENOENT') return;
      throw err;
    }
    await mkdir(dst, { recursive: true, mode: 0o700 });
    let wrote = false;
    for (const e of entries) {
      const s = join(src, e.name);
      const d = join(dst, e.name);
      if (e.isDirectory()) {
        await walk(s, d);
        continue;
      }
      if (!e.isFile() || e.name.endsWith('.tmp')) continue;
      const body = await readFile(s);
      const there = await stat(d).catch(() => undefined);
      if (there?.size === body.length) continue;
      await rename(await stageFile(d, body as any), d);
      wrote = true;
      files++;
      bytes += body.length;
    }
    if (wrote) await syncDir(dst);
  };
  for (const folder of BLOB_FOLDERS) await walk(join(from, folder), join(to, folder));
  if (files) await syncDir(to);
  return { files, bytes };
}

/**
 * Copies the store at `from` into the empty `to` (see the top of this file). Throws a DocsError:
 * `conflict` when a directory is held by another process, the destination holds a store, or a
 * PostgreSQL source changed during the copy; `not_found` when there is no store at `from`.
 */
export async function copyStore(opts: CopyOptions): Promise<CopySummary> {
  const { from, to } = opts;
  const fromPg = isPostgresUrl(from);
  const toPg = isPostgresUrl(to);
  const fromText = describeLocation(from);
  const toText = describeLocation(to);
  if (fromPg && toPg ? pgIdentity(from) === pgIdentity(to) : !fromPg && !toPg && resolve(from) === resolve(to)) {
    throw new DocsError('invalid', `--from and --to are the same store (${toText})`);
  }
  if (opts.blobs !== undefined && fromPg === toPg) {
    throw new DocsError(
      'invalid',
      fromPg
        ? '--blobs names the file-bytes directory of a PostgreSQL store copied to or from a data directory: between two PostgreSQL stores no file is copied'
        : '--blobs names the file-bytes directory of a PostgreSQL store: between two data directories the files are copied along',
    );
  }
  if (!fromPg && !existsSync(join(from, 'shards'))) throw new DocsError('not_found', `no store in ${from} (it has no shards/ folder)`);

  const locks: (Acquired & { ok: true })[] = [];
  const closing: (() => Promise<void>)[] = [];
  try {
    if (!fromPg) locks.push(hold(from, 'source'));
    if (!toPg) locks.push(hold(to, 'destination'));

    // The source, through the engine: an older layout is migrated in place, the catalog checked.
    const src = await openAt(from);
    closing.push(() => src.close());
    if (fromPg && (await src.keys()).length === 0) throw new DocsError('not_found', `no store in ${fromText}`);
    const srcStore = await ShardStore.open(src, TABLES);
    closing.push(() => srcStore.close()); // closes src as well (closing twice is harmless)

    const dst = await openAt(to);
    closing.push(() => dst.close());
    const present = await dst.keys();
    if (present.length) {
      throw new DocsError('conflict', `${toText} already holds a store (${present.length} shards): docs migrate copies into an empty destination only`);
    }

    const keys = await src.keys();
    const shards = await readAll(src, keys);
    if (fromPg) {
      // No lock in PostgreSQL: a server writing the source now would make the copy a mix of two
      // moments. Read it again; any shard added, removed or changed means it was in use.
      const again = await readAll(src, await src.keys());
      const changed = [...new Set([...shards.keys(), ...again.keys()])].filter((k) => shards.get(k)?.version !== again.get(k)?.version);
      if (changed.length) {
        throw new DocsError(
          'conflict',
          `${fromText} changed while it was read (${changed.length} shards, e.g. ${changed.slice(0, 3).join(', ')}): stop the servers using it, then run docs migrate again`,
        );
      }
    }
    const digests = new Map<string, string>();
    let bytes = 0;
    for (const [k, s] of shards) {
      bytes += Buffer.byteLength(JSON.stringify(s.data));
      digests.set(k, digest(k, s.data));
    }

    // File bytes first: once the shards are committed, every file they name is already there.
    let blobs: CopySummary['blobs'];
    const blobFrom = fromPg ? opts.blobs : from;
    const blobTo = toPg ? opts.blobs : to;
    if (fromPg && toPg) {
      blobs = { copied: false, note: `File bytes are not in PostgreSQL: serve ${toText} with the --blobs directory of the servers of ${fromText}` };
    } else if (blobFrom && blobTo) {
      blobs = { copied: true, from: blobFrom, to: blobTo, ...(await copyBlobs(blobFrom, blobTo)) };
    } else if (toPg) {
      blobs = {
        copied: false,
        note: `File bytes stay in ${from} (files/, openapi/, pdf/): serve with --store ${toText} --blobs ${from}, or copy those folders into the directory given to --blobs`,
      };
    } else {
      blobs = {
        copied: false,
        note: `File bytes are not in PostgreSQL: copy the files/, openapi/ and pdf/ folders of its servers' --blobs directory into ${to}`,
      };
    }

    // One commit: every shard, each expected absent (a server that started on the destination
    // meanwhile makes it a conflict, and nothing is written).
    try {
      await dst.commit(new Map([...shards].map(([k, s]) => [k, s.data])), new Map([...shards.keys()].map((k) => [k, 0])));
    } catch (err: any) {
      if (err instanceof ShardConflict) throw new DocsError('conflict', `${toText} was written by another process during the copy: nothing was copied`);
      const hint = /out of shared memory/i.test(err.message ?? '')
        ? ` (one commit of ${shards.size} shards takes a lock per shard: raise max_locks_per_transaction)`
        : '';
      throw new DocsError('unavailable', `copying into ${toText} failed, nothing was copied: ${err.message}${hint}`, { cause: err });
    }

    // Verify: a new backend on the destination, opened through the engine, holds the same shards.
    const check = await openAt(to);
    closing.push(() => check.close());
    const checkStore = await ShardStore.open(check, TABLES);
    closing.push(() => checkStore.close());
    const copied = await readAll(check, await check.keys());
    const wrong = [...new Set([...shards.keys(), ...copied.keys()])].filter((k) => !copied.has(k) || digests.get(k) !== digest(k, copied.get(k)!.data));
    if (copied.size !== shards.size || wrong.length) {
      throw new DocsError(
        'bug',
        `the copy in ${toText} differs from the source (${copied.size} shards for ${shards.size}; e.g. ${wrong.slice(0, 3).join(', ')}): do not use it`,
      );
    }
    return { from: fromText, to: toText, shards: shards.size, bytes, blobs };
  } finally {
    for (const close of closing.reverse()) await close().catch(() => {});
    for (const l of locks) l.release();
  }
}

/** `1.2 MB`-style size for summaries. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}
