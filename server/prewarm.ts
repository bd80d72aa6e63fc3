import { lstatSync, readFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PREWARM_FILE } from '../src/store/shard-files.js';
import type { ShardStore } from '../src/store/shard-store.js';

// The store's cache carried over a restart, as PostgreSQL's autoprewarm carries its buffers: when
// `docs serve` closes it records which shards its cache held (most recently used first, as many
// as take RECORD_BYTES of memory); the next `docs serve` of that data directory loads them again
// before it says it is ready, within a strict budget (PREWARM_BYTES of memory, PREWARM_MS of
// wall time, never past the cache's own bound). A first read of a space's content after a restart
// then finds its shards loaded, as a warm one does (a first content read of 200 pages loads ~700
// KB of shards: ~10 ms of main-thread CPU, most of its cost; docs/manual/performance.md, "First
// requests"). Only a hint: a missing, stale (shards since deleted: absent, no I/O) or damaged
// record loads nothing it should not, and never fails a start. In-process CLI commands neither
// read nor write it (only `docs serve` passes `prewarm`); a store without a record (the first
// server after seeding with the CLI) loads nothing more than before.

/** The record's file in the data directory (named with the store's files: a backup leaves it out). */
export { PREWARM_FILE };
const FORMAT = 1;
/** Memory (the cache's measure, Entry.size) of the shards recorded, and loaded at a start. */
export const RECORD_BYTES = 8 * 1024 * 1024;
export const PREWARM_BYTES = 8 * 1024 * 1024;
/** Wall time a start spends loading, checked between batches of reads. */
export const PREWARM_MS = 25;
/** A record is read only if it is at most this long, and only its first MAX_KEYS keys. */
const MAX_RECORD_BYTES = 256 * 1024;
const MAX_KEYS = 1024;

/**
 * Writes the record of the store's cache (atomically: a temp file renamed; not fsynced, a torn one
 * is ignored), unless its text is `unchanged` (the last one written). Answers the text written.
 */
export async function recordCache(dataDir: string, store: ShardStore, unchanged?: string): Promise<string> {
  const shards = store.hotShards(RECORD_BYTES).slice(0, MAX_KEYS);
  const file = join(dataDir, PREWARM_FILE);
  const tmp = `${file}.tmp`;
  const text = JSON.stringify({
    format: FORMAT,
    note: 'The shards the last docs serve of this directory held in memory, loaded again by the next within a small budget. Safe to delete.',
    shards,
  });
  if (text === unchanged) return text;
  try {
    await writeFile(tmp, text + '\n', { mode: 0o600 });
    await rename(tmp, file);
  } catch {
    await rm(tmp, { force: true }).catch(() => {});
  }
  return text;
}

/** The shard keys of the record, or none when there is no record or it is not one this docs wrote. */
export function readRecord(dataDir: string): string[] {
  const file = join(dataDir, PREWARM_FILE);
  let text: string;
  try {
    // Looked at before it is read: a regular file of a record's size, not one of any size read
    // whole first, nor a pipe or a device that would hold the start.
    const st = lstatSync(file);
    if (!st.isFile() || st.size > MAX_RECORD_BYTES) return [];
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  try {
    const r = JSON.parse(text);
    if (r?.format !== FORMAT || !Array.isArray(r.shards)) return [];
    return r.shards.slice(0, MAX_KEYS).filter((k: unknown): k is string => typeof k === 'string' && k.length > 0 && k.length <= 1024);
  } catch {
    return [];
  }
}

/** What a start's prewarm did: the shards the record listed, those read, the cache's growth (bytes of memory) and the wall time. */
export interface Prewarmed {
  recorded: number;
  loaded: number;
  bytes: number;
  ms: number;
}

/** Memory (bytes, as the cache counts it) and wall time (ms) a prewarm may take. */
export interface PrewarmBudget {
  bytes: number;
  ms: number;
  /** How often a running server writes its record (RECORD_EVERY_MS; tests give less). */
  recordEveryMs?: number;
}

/**
 * A running `docs serve` writes its record this often too, not only when it closes: a server
 * killed (SIGKILL, out of memory, the machine lost) leaves the record of its last minutes, and the
 * next start is not cold for that. A few ms of the main thread each time (the cache's entries
 * sorted, one small file written and renamed).
 */
export const RECORD_EVERY_MS = 5 * 60_000;

/** Writes the record every `everyMs` (when it changed) until the answer is called, which waits for a write under way. */
export function recordPeriodically(dataDir: string, store: ShardStore, everyMs = RECORD_EVERY_MS): () => Promise<void> {
  let writing: Promise<void> | undefined;
  let last: string | undefined;
  const timer = setInterval(() => {
    // Not written again while the cache holds the same shards in the same order (an idle server).
    writing ??= recordCache(dataDir, store, last)
      .then((text) => void (last = text))
      .finally(() => (writing = undefined));
  }, everyMs).unref();
  return async () => {
    clearInterval(timer);
    await writing;
  };
}

/** Loads the recorded shards within the budget. */
export async function prewarm(dataDir: string, store: ShardStore, budget: PrewarmBudget = { bytes: PREWARM_BYTES, ms: PREWARM_MS }): Promise<Prewarmed> {
  const t0 = performance.now();
  const keys = readRecord(dataDir);
  if (!keys.length) return { recorded: 0, loaded: 0, bytes: 0, ms: 0 };
  const end = t0 + budget.ms;
  const before = store.stats().bytes;
  const loaded = await store.prewarm(keys, budget.bytes, () => performance.now() >= end);
  return { recorded: keys.length, loaded, bytes: store.stats().bytes - before, ms: performance.now() - t0 };
}
