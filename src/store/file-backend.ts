import { copyFile, link, mkdir, open as openFileHandle, readdir, readFile, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Low } from 'lowdb';
import { DocsError } from '../kernel/errors.js';
import { logOrder, type LoadedShard, type LogChanges, type ShardBackend, type ShardData } from './backend.js';
import { MARKER_TMP_PREFIX, OLD_SHARD_DIR, migrateFormat, readFormat, type DirFormat } from './data-format.js';
import { stageFile, syncDir, type OpenFile } from './durable-file.js';
import {
  CHECKSUMS,
  CatalogDamage,
  MANIFEST,
  SHARDS,
  applyChanges,
  bucketAt,
  bucketReplayed,
  bucketFile,
  bucketText,
  catalogEntry,
  checkShard,
  entryIn,
  fileName,
  keyOf,
  parseShard,
  parseBucket,
  readBucketBytes,
  readBucketBytesSync,
  readCatalog,
  sizeProblem,
  STRAY,
  sumBucket,
} from './shard-files.js';
import { existsSync, readFileSync } from 'node:fs';
import { watchClosed, watchOpened } from './open-watch.js';
import { storageError } from './storage-error.js';
import { BIG_COMMIT, JOURNAL, deltaText, isAppend, journalRecord, lastWrites, readJournal, type JournalEntry } from './journal.js';
import {
  LOGS,
  LogIndex,
  isLogFile,
  isLogKey,
  keptLines,
  lineList,
  logFile,
  logKeyOf,
  logLines,
  logShard,
  parseLog,
  replayLog,
  type LogRow,
} from './log-files.js';

export { fileName, keyOf } from './shard-files.js';

const IO_CONCURRENCY = 16;
/** Logs whose index (LogIndex: ~0.2 KB a row) a process keeps for its trims. */
const LOG_INDEXES = 32;

/**
 * Journal bytes after which a commit checkpoints (fsyncs the files written since the last
 * checkpoint, each once, and empties the journal): what a start after a crash replays at most.
 */
export const JOURNAL_CHECKPOINT_BYTES = 16 << 20;
/** DOCS_JOURNAL_CHECKPOINT_BYTES: less, for tests that kill a server during its checkpoints. */
const CHECKPOINT_BYTES = Number(process.env.DOCS_JOURNAL_CHECKPOINT_BYTES) > 0 ? Number(process.env.DOCS_JOURNAL_CHECKPOINT_BYTES) : JOURNAL_CHECKPOINT_BYTES;

/**
 * Runs `fn` over `items`, `n` at a time. After a failure no new item starts, and it rejects only
 * once those running have ended: a commit cleaning up after a failure sees every file staged.
 */
async function each<T>(items: T[], n: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const results = await Promise.allSettled(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length && !failed) {
        try {
          await fn(items[next++]!);
        } catch (err) {
          failed = true;
          throw err;
        }
      }
    }),
  );
  const rejected = results.find((r) => r.status === 'rejected');
  if (rejected) throw (rejected as PromiseRejectedResult).reason;
}

export interface FileBackendOptions {
  /** How files are opened for writing (tests inject a full disk). */
  openFile?: OpenFile;
  /** Journal bytes after which a commit checkpoints (JOURNAL_CHECKPOINT_BYTES; tests set less). */
  checkpointBytes?: number;
  /** Characters of text above which a commit's record names fsynced temp files (BIG_COMMIT; tests set less). */
  bigCommit?: number;
  /**
   * Stat every committed shard at open (`docs serve`): a file emptied, cut short or resized stops
   * the start. Without it (in-process commands, which open the store for one command) open only
   * lists `shards/`, and a damaged file is found, and named, when a command loads it.
   */
  statAtOpen?: boolean;
  /**
   * Read shards and catalog buckets with readFileSync. For a process that opens the store for
   * itself (an in-process command, `docs mcp`): nothing else waits on its event loop, and a small
   * file read synchronously costs a fifth of an async read (open, fstat, read and close, each a
   * round trip through the thread pool). `spaces list` on 100 spaces reads ~160 files.
   */
  syncReads?: boolean;
  /**
   * Leave the temp files of a commit a crash cut before its commit point in the shard folder,
   * for the next `docs serve` start or `docs doctor` to remove: finding them lists the folder,
   * 35–100 ms at 20,000 shard files (10,000 spaces), for a command that reads a page of them.
   * They only hold disk space (nothing reads a `.tmp` file); a commit that fails removes its own,
   * and an interrupted commit's manifest is still completed.
   */
  keepStrayTemps?: boolean;
  /**
   * Keep log tables row by row in log files (ShardBackend.logs; the default). False: as a docs
   * before them did (the audit log in rings and segments): tests write such a store to open it
   * with the default.
   */
  logs?: boolean;
}

/**
 * One lowdb document per shard under `<dir>/store` (`<dir>/shards` before format 3, see
 * src/store/data-format.ts), read when the store asks for it, and a
 * catalog of the committed shards under `<dir>/checksums` (file name -> SHA-256 of its text, in
 * 64 buckets). A commit stages every shard file it changes (temp files, not fsynced), then
 * appends one record holding their texts and the catalog entries it changes (not the buckets'
 * whole texts) to the journal (src/store/journal.ts) and fdatasyncs it: that is the commit point, one sync per
 * commit whatever the number of files (each file fsynced, and a manifest, cost ~2 fsyncs per
 * write at 32 connections). The renames follow. A checkpoint (every JOURNAL_CHECKPOINT_BYTES of
 * records, before a snapshot, and at close) writes the catalog buckets changed since the last
 * one (nothing else reads them while the store is open: this process keeps them in memory),
 * fsyncs each shard file written since, once, and empties the journal. On open, a journal left by a crash is replayed (each file's last
 * text written again, fsynced; each catalog bucket's changes applied over it), as is a manifest (`commit.json`) left by an older docs, and stray
 * temp files of commits that never reached their commit point are deleted (those in the shard
 * folder not by an in-process command: keepStrayTemps). So a commit is all or nothing, catalog
 * included. A commit that fails before its commit point (a full disk) removes its temp files
 * and cuts its record off the journal before it answers, so freeing space is enough for the next
 * one to succeed.
 *
 * Damage is named, never silently dropped. `docs serve` (`statAtOpen`) reads the whole catalog at
 * open, lists `shards/` once and stats each file: a committed shard whose file is gone, cut
 * short, emptied or resized, or a file the catalog does not know, stops the start, naming the
 * file. An in-process command opens the store for one command: it reads a bucket of the catalog
 * when it first loads or commits a shard of it, and checks only the entries of the shards it
 * loads (sumOf), so its cost follows what it touches. A shard's text is checked (JSON,
 * shape, checksum) when it is loaded, so open reads no shard it does not need, and a request
 * touching a shard damaged in place (same size) fails with the file's name (503) rather than a
 * row vanishing.
 * The engine loads `catalog` and `root` at open, so those are checked before anything is served.
 * One process writes a directory (src/store/lock.ts), so versions only count commits.
 */
export class FileBackend implements ShardBackend {
  private shardDir: string;
  private readonly sumDir: string;
  private readonly versions = new Map<string, number>();
  /** The catalog: bucket -> (file name -> `sha256:bytes`), for the buckets parsed whole (see sumOf). */
  private buckets = new Map<number, Map<string, string>>();
  /** Buckets read but not parsed (undefined: no file): a lookup finds its one entry in the bytes. */
  private readonly texts = new Map<number, Buffer | undefined>();
  private readonly textReads = new Map<number, Promise<Buffer | undefined>>();
  /** What was read of the catalog: bucket files, and entries parsed or found (tests count them). */
  readonly catalogReads = { files: 0, entries: 0 };
  /** Shard files opened by load(), and shards known absent without opening their file (tests count them). */
  readonly shardReads = { opened: 0, knownAbsent: 0 };
  /**
   * `docs serve` (statAtOpen) listed the shard folder at open and found there every file the
   * catalog lists and no other; its own commits change both together (one writer per directory).
   * A shard the catalog does not list then has no file: load() does not open it for an ENOENT.
   * `docs serve` on a small store made ~200 such opens in its workers' first passes (directory
   * buckets and organization summary buckets never written), each a round trip through the pool.
   */
  private listedAtOpen = false;
  /** Commits and snapshots, one at a time (a snapshot sits at a commit boundary). */
  private tail: Promise<unknown> = Promise.resolve();
  /** The journal, open for appending from the first commit on. */
  private journal?: FileHandle;
  /** Bytes of whole records in the journal (a failed append is cut back to this). */
  private journalBytes = 0;
  /** A failed append could not be cut off: no record may follow it until it is. */
  private journalTorn = false;
  /** A commit past its commit point did not reach its files: they are written from the journal before anything else. */
  private unapplied = false;
  /** Files (relative to dir) written since the last checkpoint, to fsync at the next. */
  private readonly unsynced = new Set<string>();
  /** Catalog buckets committed (in the journal) since the last checkpoint, their files not written yet. */
  private readonly dirtyBuckets = new Set<number>();
  /**
   * Shard files (by name) committed again since the last checkpoint, their new text in the journal
   * and here, not yet in the file: loads read it here, the checkpoint writes the file, once.
   */
  private readonly pending = new Map<string, string>();
  /**
   * Log files (by path from the data directory) this process committed to or trimmed: the bytes
   * the file holds, and the lines committed since the last checkpoint (in the journal and here,
   * appended to the file at the next checkpoint). A log first committed to is stat'ed, never read.
   */
  private readonly logFiles = new Map<string, { file: number; lines: string[]; bytes: number }>();
  /** What this process knows of the logs it trimmed (LogIndex), the most recently trimmed LOG_INDEXES. */
  private readonly logIndex = new Map<string, LogIndex>();
  /** Log tables' rows are lines of log files (src/store/log-files.ts), appended by commits. */
  readonly logs: boolean;
  private readonly logDir: string;
  /** Closed (until opened again): a commit or trim still queued (the audit log's, in the background) is refused, and opens no journal again. */
  private closed = false;

  constructor(
    readonly dir: string,
    private readonly opts: FileBackendOptions = {},
  ) {
    this.shardDir = join(dir, SHARDS);
    this.sumDir = join(dir, CHECKSUMS);
    this.logDir = join(dir, LOGS);
    this.logs = opts.logs ?? true;
  }

  private damaged(file: string, problem: string): DocsError {
    return new DocsError('unavailable', `data directory ${this.dir}: ${file} ${problem} (see docs doctor --data ${this.dir})`);
  }

  /** A bucket's bytes, read on first use (an in-process command reads the few it needs). */
  private bucketBytes(b: number): Promise<Buffer | undefined> {
    if (this.texts.has(b)) return Promise.resolve(this.texts.get(b));
    if (this.opts.syncReads) {
      try {
        const text = readBucketBytesSync(this.dir, b);
        this.catalogReads.files++;
        this.texts.set(b, text);
        return Promise.resolve(text);
      } catch (err) {
        return Promise.reject(storageError(err, this.dir));
      }
    }
    let p = this.textReads.get(b);
    if (!p) {
      p = readBucketBytes(this.dir, b).then(
        (text) => {
          this.catalogReads.files++;
          if (!this.texts.has(b)) this.texts.set(b, text);
          return this.texts.get(b);
        },
        (err) => {
          this.textReads.delete(b);
          throw storageError(err, this.dir);
        },
      );
      this.textReads.set(b, p);
    }
    return p;
  }

  /** A bucket of the catalog parsed whole and checked (a commit rewrites it; a lookup missed in it). */
  private async bucket(b: number): Promise<Map<string, string>> {
    const have = this.buckets.get(b);
    if (have) return have;
    const text = await this.bucketBytes(b);
    if (this.buckets.has(b)) return this.buckets.get(b)!;
    let sums: Map<string, string>;
    try {
      sums = parseBucket(b, text);
    } catch (err) {
      throw err instanceof CatalogDamage ? this.damaged(err.file, err.problem) : err;
    }
    this.catalogReads.entries += sums.size;
    this.buckets.set(b, sums);
    this.texts.delete(b);
    return sums;
  }

  /**
   * A committed shard file's catalog entry. Its bucket is read, and the entry found in its bytes
   * (shard-files.ts entryIn) and checked against the shard when it is loaded, without parsing the
   * rest of the bucket: what a command checks follows the shards it loads, not the size of the
   * store (a bucket holds ~300 entries at 10,000 spaces, and a page of a list touches nearly
   * every bucket). An entry not found that way parses the bucket whole, so a shard the catalog
   * does not list, or a damaged bucket, is named as before; `docs serve` (statAtOpen), a commit
   * (for the buckets it rewrites) and `docs doctor` read buckets whole.
   */
  private async sumOf(file: string): Promise<string | undefined> {
    const b = sumBucket(file);
    const have = this.buckets.get(b);
    if (have) return have.get(file);
    const text = await this.bucketBytes(b);
    const found = text === undefined || this.buckets.has(b) ? undefined : entryIn(text, file);
    if (found === undefined) return (await this.bucket(b)).get(file);
    this.catalogReads.entries++;
    return found;
  }

  /** The folder of shard files, as messages name it (`shards` while an older format is read). */
  private folder(): string {
    return relative(this.dir, this.shardDir);
  }

  async open(): Promise<void> {
    this.closed = false;
    try {
      // An older directory is checked where its shards are, and migrated only once it opened:
      // a start refused for damage leaves it as it was.
      const older = await this.prepare({ migrate: false });
      if (!existsSync(this.sumDir)) await this.adopt();
      if (this.opts.statAtOpen) await this.checkAtOpen();
      this.listedAtOpen = !!this.opts.statAtOpen && !older;
      if (older) {
        await migrateFormat(this.dir, older);
        this.shardDir = join(this.dir, SHARDS);
      }
    } catch (err) {
      if (err instanceof CatalogDamage) throw this.damaged(err.file, err.problem);
      throw storageError(err, this.dir);
    }
    watchOpened(this, `data directory ${this.dir}`);
  }

  /** Every committed shard there with its committed size, and nothing else (`docs serve`). */
  private async checkAtOpen(): Promise<void> {
    this.buckets = (await readCatalog(this.dir))!;
    // Every committed shard is there with its committed size, and nothing else: one listing
    // and a stat per file, no reads (a file's text is checked when it is loaded).
    const present = new Set((await readdir(this.shardDir)).filter((f) => f.endsWith('.json')));
    const known = new Map<string, string>();
    for (const b of this.buckets.values()) for (const [f, e] of b) known.set(f, e);
    const missing = [...known.keys()].filter((f) => !present.has(f));
    if (missing.length) {
      const more = missing.length > 1 ? `; ${missing.length - 1} other committed shard file(s) missing too` : '';
      throw this.damaged(`${this.folder()}/${missing[0]}`, `is missing (the catalog of committed shards lists it${more})`);
    }
    const stray = [...present].filter((f) => !known.has(f));
    if (stray.length) throw this.damaged(`${this.folder()}/${stray[0]}`, STRAY);
    const wrong: [string, string][] = [];
    await each([...known], 64, async ([f, entry]) => {
      let problem = sizeProblem((await stat(join(this.shardDir, f))).size, entry);
      if (!problem) return;
      // Only a file already found damaged is read, to say how (not JSON, not a shard).
      const text = await readFile(join(this.shardDir, f), 'utf8');
      const parsed = text ? parseShard(text) : 'is empty';
      if (typeof parsed === 'string') problem = parsed === 'is empty' ? parsed : `${problem}: it ${parsed}`;
      wrong.push([f, problem]);
    });
    if (wrong.length) {
      wrong.sort((a, b) => a[0].localeCompare(b[0]));
      const more = wrong.length > 1 ? `; ${wrong.length - 1} other shard file(s) damaged too` : '';
      throw this.damaged(`${this.folder()}/${wrong[0]![0]}`, wrong[0]![1] + more);
    }
  }

  /**
   * Reads the directory's format (src/store/data-format.ts) before anything is written: a newer
   * format, two formats mixed or a damaged marker stop here. A new directory gets the current
   * format; an older one completes its interrupted commit where its shards are, then is migrated
   * (unless `migrate: false`: then it is returned, for the caller to migrate once it has
   * checked). Then completes an interrupted commit. `docs doctor --repair` starts with this too.
   */
  async prepare(opts: { migrate?: boolean } = {}): Promise<DirFormat | undefined> {
    const format = readFormat(this.dir);
    if (format.kind === 'empty') await mkdir(this.dir, { recursive: true, mode: 0o700 });
    if (format.kind === 'older') {
      this.shardDir = join(this.dir, OLD_SHARD_DIR);
      await this.recover();
      if (opts.migrate === false) return format; // the caller migrates once it has checked
      await migrateFormat(this.dir, format);
      this.shardDir = join(this.dir, SHARDS);
      return undefined;
    }
    await migrateFormat(this.dir, format);
    await this.recover();
    return undefined;
  }

  /**
   * A directory without a catalog (new, or written by a version before it): the catalog is made
   * from the shard files there, once, each checked to be a shard. Written whole into a temp
   * folder renamed into place, so a crash leaves either no catalog or a complete one.
   */
  private async adopt(): Promise<void> {
    const buckets = new Map<number, Map<string, string>>();
    for (let b = 0; b < 64; b++) buckets.set(b, new Map());
    for (const f of (await readdir(this.shardDir)).filter((f) => f.endsWith('.json'))) {
      const text = await readFile(join(this.shardDir, f), 'utf8');
      const data = parseShard(text);
      if (typeof data === 'string') throw this.damaged(`${this.folder()}/${f}`, data);
      buckets.get(sumBucket(f))!.set(f, catalogEntry(text));
    }
    const tmp = `${this.sumDir}.${randomBytes(6).toString('hex')}.tmp`;
    await mkdir(tmp, { mode: 0o700 });
    try {
      for (const [b, sums] of buckets)
        if (sums.size) await stageFile(join(tmp, bucketFile(b)), bucketText(sums), this.opts.openFile).then((t) => rename(t, join(tmp, bucketFile(b))));
      await syncDir(tmp);
      await rename(tmp, this.sumDir);
      await syncDir(this.dir);
    } catch (err) {
      await rm(tmp, { recursive: true, force: true });
      throw err;
    }
    this.buckets = buckets;
  }

  async load(keys: string[]): Promise<Map<string, LoadedShard>> {
    // A commit's files not written yet (see commitNow): written from the journal first, or the load fails.
    if (this.unapplied)
      await this.exclusive(() => (this.unapplied ? this.applyJournal() : Promise.resolve())).catch((err) => Promise.reject(storageError(err, this.dir)));
    const out = new Map<string, LoadedShard>();
    const logKeys = this.logs ? keys.filter(isLogKey) : [];
    if (logKeys.length) {
      // Between commits: a checkpoint appending a log's lines, or a trim replacing it, is not half seen.
      for (const [key, shard] of await this.exclusive(() => this.loadLogs(logKeys))) out.set(key, shard);
      keys = keys.filter((k) => !isLogKey(k));
    }
    await each(keys, IO_CONCURRENCY, async (key) => {
      const file = fileName(key);
      const sum = await this.sumOf(file);
      let text: string | undefined;
      const kept = sum === undefined ? undefined : this.pending.get(file);
      if (kept !== undefined) text = kept;
      else if (sum === undefined && this.listedAtOpen) this.shardReads.knownAbsent++;
      else
        try {
          const path = join(this.shardDir, file);
          this.shardReads.opened++;
          text = this.opts.syncReads ? readFileSync(path, 'utf8') : await readFile(path, 'utf8');
        } catch (err: any) {
          if (err.code !== 'ENOENT') throw storageError(err, this.dir);
          if (sum !== undefined) throw this.damaged(`${this.folder()}/${file}`, 'is missing (the catalog of committed shards lists it)');
        }
      if (text !== undefined && sum === undefined) throw this.damaged(`${this.folder()}/${file}`, STRAY);
      const data = text === undefined ? undefined : checkShard(text, sum!);
      if (typeof data === 'string') throw this.damaged(`${this.folder()}/${file}`, data);
      // Through lowdb, so the document is what lowdb would read.
      const low = new Low<ShardData>({ read: async () => data ?? null, write: async () => {} }, {});
      await low.read();
      const version = text === undefined ? 0 : (this.versions.get(key) ?? 1);
      out.set(key, { data: low.data, version, size: text?.length ?? 0 });
    });
    return out;
  }

  async keys(): Promise<string[]> {
    const logs = new Set((await readdir(this.logDir).catch(() => [] as string[])).filter(isLogFile));
    for (const [path, log] of this.logFiles) if (log.file + log.bytes > 0) logs.add(path.slice(LOGS.length + 1));
    return [...(await readdir(this.shardDir)).filter((f) => f.endsWith('.json')).map(keyOf), ...[...logs].map(logKeyOf)];
  }

  /** A log's file as far as this process knows it (stat'ed once): its bytes and the lines not in it yet. */
  private async logOf(path: string): Promise<{ file: number; lines: string[]; bytes: number }> {
    let log = this.logFiles.get(path);
    if (!log) {
      const size = await stat(join(this.dir, path)).then(
        (st) => st.size,
        (err) => (err.code === 'ENOENT' ? 0 : Promise.reject(err)),
      );
      log = this.logFiles.get(path) ?? { file: size, lines: [], bytes: 0 };
      this.logFiles.set(path, log);
    }
    return log;
  }

  /** The text of a log: its file and the lines committed since the last checkpoint. */
  private async logText(path: string): Promise<string> {
    const log = this.logFiles.get(path);
    const bytes = await readFile(join(this.dir, path)).catch((err) => (err.code === 'ENOENT' ? Buffer.alloc(0) : Promise.reject(err)));
    // Bytes past what this process knows (an append at a checkpoint that failed half way) are not the log's.
    let text = (log ? bytes.subarray(0, log.file) : bytes).toString('utf8');
    if (log) text += log.lines.join('');
    return text;
  }

  /** The rows of a log. */
  private async readLog(key: string): Promise<Map<string, LogRow>> {
    const path = `${LOGS}/${logFile(key)}`;
    const parsed = parseLog(await this.logText(path));
    if (parsed.problem) throw this.damaged(path, parsed.problem);
    return parsed.rows;
  }

  /** Loads logs: each as a shard of all its rows (version 0), oldest first (backend.ts logOrder). */
  private async loadLogs(keys: string[]): Promise<Map<string, LoadedShard>> {
    const out = new Map<string, LoadedShard>();
    for (const key of new Set(keys)) {
      let rows: Map<string, LogRow>;
      try {
        rows = await this.readLog(key);
      } catch (err) {
        throw err instanceof DocsError ? err : storageError(err, this.dir);
      }
      let size = 0;
      for (const r of rows.values()) size += JSON.stringify(r.row).length + r.row.id.length + 8;
      out.set(key, { data: logShard(rows), version: 0, size });
    }
    return out;
  }

  /**
   * Removes the rows of log `log` past the newest `keep` (by logOrder, then id) or ordered before
   * `after` (ShardBackend.trimLog), between commits, found in the log's index (LogIndex: the log
   * is read for it once). Their removal is a commit of its own (lines in a journal record,
   * appended at the next checkpoint), until the log would hold more bytes of lines of removed
   * rows than half of those kept: writing the log anew at each trim (5,000 events every ~500)
   * wrote ten events' lines an event. Then the kept lines are written
   * whole to a temp file instead (fsynced), a journal record naming it is the commit point (a
   * replay after a crash renames it and appends after it only what later commits added), then it
   * is renamed over the log and the folder fsynced.
   */
  trimLog(log: string, keep: number, after: string): Promise<{ count: number; oldest: string; removed: number }> {
    return this.exclusive(async () => {
      if (this.closed) throw new DocsError('unavailable', `data directory ${this.dir}: the store is closed`);
      const path = `${LOGS}/${logFile(log)}`;
      const target = join(this.dir, path);
      let tmp: string | undefined;
      let idx: LogIndex;
      let plan: ReturnType<LogIndex['plan']>;
      let text: string;
      try {
        if (this.unapplied) await this.applyJournal();
        let found = this.logIndex.get(path);
        if (!found) {
          const made = LogIndex.of(await this.logText(path));
          if (typeof made === 'string') throw this.damaged(path, made);
          found = made;
        }
        idx = found;
        this.logIndex.delete(path);
        this.logIndex.set(path, idx); // most recently trimmed last
        if (this.logIndex.size > LOG_INDEXES) this.logIndex.delete(this.logIndex.keys().next().value!);
        plan = idx.plan(keep, after);
        const result = { count: plan.count, oldest: plan.oldest, removed: plan.removed.length };
        if (!plan.removed.length) return result;
        const was = await this.logOf(path);
        const removal = logLines([], plan.removed);
        const live = idx.live - plan.bytes;
        if (was.file + was.bytes + Buffer.byteLength(removal) - live <= live / 2) {
          await this.append(journalRecord([[path, removal, 'A', was.file + was.bytes]])); // commit point
          this.logFiles.set(path, { file: was.file, lines: [...was.lines, removal], bytes: was.bytes + Buffer.byteLength(removal) });
          for (const id of plan.removed) idx.remove(id);
          return result;
        }
        text = keptLines(await this.logText(path), new Set(plan.removed));
        await mkdir(this.logDir, { recursive: true, mode: 0o700 });
        tmp = await stageFile(target, text, this.opts.openFile);
        await this.append(journalRecord([[path, relative(this.dir, tmp), true]])); // commit point
      } catch (err) {
        if (tmp) await unlink(tmp).catch(() => {});
        this.logIndex.delete(path); // read again at the next trim
        throw err instanceof DocsError ? err : storageError(err, this.dir);
      }
      this.logFiles.set(path, { file: Buffer.byteLength(text), lines: [], bytes: 0 });
      for (const id of plan.removed) idx.remove(id);
      try {
        await rename(tmp, target);
        await syncDir(this.logDir);
      } catch {
        this.unapplied = true;
        await this.applyJournal().catch((err) => {
          throw storageError(err, this.dir);
        });
      }
      return { count: plan.count, oldest: plan.oldest, removed: plan.removed.length };
    });
  }

  /** Completes a commit a crash interrupted after its commit point; removes temp files of the others. */
  async recover(): Promise<void> {
    // Commits after the last checkpoint of a process that did not close: their files written
    // again. Before a manifest: only an earlier docs writes one, so it came after the journal.
    const journalPath = join(this.dir, JOURNAL);
    if (!this.journal) {
      const j = await readJournal(journalPath);
      if (j) {
        await this.replay(j.entries);
        await unlink(journalPath);
        await syncDir(this.dir);
      }
    }
    const manifestPath = join(this.dir, MANIFEST);
    let manifest: { v?: number; renames: [string, string][]; deletes: string[] } | undefined;
    try {
      manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
    } catch (err: any) {
      if (err.code !== 'ENOENT') throw err;
    }
    if (manifest) {
      // Manifests of version 2 name files from the data directory; older ones from shards/.
      const base = manifest.v === 2 ? this.dir : this.shardDir;
      for (const [tmp, target] of manifest.renames) {
        await rename(join(base, tmp), join(base, target)).catch((e) => {
          if (e.code !== 'ENOENT') throw e;
        });
      }
      for (const f of manifest.deletes) await unlink(join(base, f)).catch(() => {});
      await syncDir(this.shardDir);
      await syncDir(this.sumDir).catch(() => {});
      await unlink(manifestPath);
    }
    for (const d of this.opts.keepStrayTemps ? [this.sumDir, this.logDir] : [this.shardDir, this.sumDir, this.logDir]) {
      for (const f of await readdir(d).catch(() => [] as string[])) if (f.endsWith('.tmp')) await unlink(join(d, f));
    }
    for (const f of await readdir(this.dir)) {
      if ((f.startsWith(MANIFEST) || f.startsWith(MARKER_TMP_PREFIX)) && f.endsWith('.tmp')) await unlink(join(this.dir, f));
      if (f.startsWith(`${CHECKSUMS}.`) && f.endsWith('.tmp')) await rm(join(this.dir, f), { recursive: true, force: true });
      if (f.startsWith('.snapshot-')) await rm(join(this.dir, f), { recursive: true, force: true }); // of a backup a crash cut short
    }
  }

  /** Runs `fn` when no commit or snapshot runs. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => {});
    return run;
  }

  /**
   * `logs`: rows appended to and removed from log files, as lines in this commit's record (see
   * src/store/log-files.ts). A log key among `changes` replaces that log (`docs migrate`).
   */
  commit(changes: Map<string, ShardData | null>, _expected?: Map<string, number>, logs?: LogChanges): Promise<Map<string, number>> {
    return this.exclusive(() => this.commitNow(changes, logs));
  }

  private async commitNow(all: Map<string, ShardData | null>, logs?: LogChanges): Promise<Map<string, number>> {
    // A write queued in the background (the audit log's, src/audit/record.ts) after the store closed: no journal opened again.
    if (this.closed) throw new DocsError('unavailable', `data directory ${this.dir}: the store is closed`);
    let changes = all;
    let replaced: [string, ShardData | null][] = [];
    if (this.logs && [...all.keys()].some(isLogKey)) {
      changes = new Map([...all].filter(([k]) => !isLogKey(k)));
      replaced = [...all].filter(([k]) => isLogKey(k));
    }
    const versions = new Map<string, number>();
    for (const [key] of replaced) versions.set(key, 0);
    for (const [key, data] of changes) versions.set(key, data === null ? 0 : (this.versions.get(key) ?? 1) + 1);
    // The catalog buckets this commit changes (as this process holds them, changed in place once
    // it is committed), and the entries it changes in each: file name -> its entry, null: removed.
    const before = new Map<number, Map<string, string>>();
    for (const key of changes.keys()) {
      const b = sumBucket(fileName(key));
      if (!before.has(b)) before.set(b, await this.bucket(b));
    }
    const changed = new Map<number, Map<string, string | null>>();
    const change = (file: string, entry: string | null) => {
      const b = sumBucket(file);
      let m = changed.get(b);
      if (!m) changed.set(b, (m = new Map()));
      m.set(file, entry);
    };
    const staged: string[] = []; // absolute temp paths, removed if the commit fails before its point
    const renames: [string, string][] = [];
    const deletes: string[] = [];
    const rel = (p: string) => relative(this.dir, p);
    const entries: JournalEntry[] = [];
    const rewritten: [string, string][] = [];
    const texts = new Map<string, string>();
    let size = 0;
    for (const [key, data] of changes) {
      if (data === null) continue;
      const text = JSON.stringify(data);
      texts.set(key, text);
      size += text.length;
    }
    // A big commit (a migration, a merge of thousands of pages) stages every file fsynced and
    // names the temp files in its record, as a manifest did: one record of all its texts would
    // double its memory, and past ~500 MB not fit in a string.
    const big = size > (this.opts.bigCommit ?? BIG_COMMIT);
    const stage = async (target: string, text: string) => {
      const tmp = await stageFile(target, text, this.opts.openFile, big);
      staged.push(tmp);
      renames.push([rel(tmp), rel(target)]);
      entries.push(big ? [rel(target), rel(tmp), true] : [rel(target), text]);
    };
    const remove = (path: string) => {
      deletes.push(rel(path));
      entries.push([rel(path), null]);
    };
    // Logs: each one's new state once committed (a replaced one: its new file; lines appended).
    const logStates = new Map<string, { file: number; lines: string[]; bytes: number }>();
    const indexed: [LogIndex, LogRow[], string[], string[]][] = [];
    try {
      if (this.unapplied) await this.applyJournal();
      for (const [key, data] of replaced) {
        const path = `${LOGS}/${logFile(key)}`;
        const rows: LogRow[] = [];
        for (const [table, byId] of Object.entries(data ?? {})) for (const row of Object.values(byId)) rows.push({ table, row });
        if (!rows.length) {
          this.logIndex.delete(path);
          if ((await this.logOf(path)).file) remove(join(this.dir, path));
          logStates.set(path, { file: 0, lines: [], bytes: 0 });
          continue;
        }
        // Staged fsynced and named in the record, as a big commit's files: a log may be MBs.
        const text = logLines(rows);
        this.logIndex.delete(path);
        await mkdir(this.logDir, { recursive: true, mode: 0o700 });
        const tmp = await stageFile(join(this.dir, path), text, this.opts.openFile);
        staged.push(tmp);
        renames.push([rel(tmp), path]);
        entries.push([path, rel(tmp), true]);
        logStates.set(path, { file: Buffer.byteLength(text), lines: [], bytes: 0 });
      }
      if (logs) {
        const byLog = new Map<string, { append: LogRow[]; remove: string[] }>();
        const of = (log: string) => byLog.get(log) ?? byLog.set(log, { append: [], remove: [] }).get(log)!;
        for (const a of logs.append) of(a.log).append.push(a);
        for (const r of logs.remove) of(r.log).remove.push(r.id);
        for (const [log, { append, remove: removed }] of byLog) {
          const path = `${LOGS}/${logFile(log)}`;
          const was = logStates.get(path) ?? (await this.logOf(path));
          const lines = lineList(append, removed);
          const text = lines.join('');
          const idx = this.logIndex.get(path);
          if (idx) indexed.push([idx, append, removed, lines]);
          // The offset the lines go at: a replay writes them only where the file does not hold them.
          entries.push([path, text, 'A', was.file + was.bytes]);
          logStates.set(path, { file: was.file, lines: [...was.lines, text], bytes: was.bytes + Buffer.byteLength(text) });
        }
      }
      await each([...changes], IO_CONCURRENCY, async ([key, data]) => {
        const file = fileName(key);
        if (data === null) {
          if (!before.get(sumBucket(file))!.has(file)) return;
          change(file, null);
          remove(join(this.shardDir, file));
          return;
        }
        const text = texts.get(key)!;
        change(file, catalogEntry(text));
        // A shard that has a file already is written at the checkpoint (the last of its texts
        // since, once); a new one now, so the folder lists every committed shard.
        if (!big && before.get(sumBucket(file))!.has(file)) {
          entries.push([rel(join(this.shardDir, file)), text]);
          rewritten.push([file, text]);
        } else await stage(join(this.shardDir, file), text);
      });
      // The catalog's changes go in the record only, as the entries changed (not the bucket's
      // whole text: ~28 KB at 16,000 shards, copied, serialized and hashed each commit): the
      // files are written at the checkpoint (nothing else reads them while the store is open),
      // so a write stages one file, not two. A big commit stages its buckets whole.
      for (const [b, delta] of changed) {
        const path = rel(join(this.sumDir, bucketFile(b)));
        if (big) {
          const sums = applyChanges(new Map(before.get(b)), delta);
          if (sums.size) await stage(join(this.dir, path), bucketText(sums));
          else if (before.get(b)!.size) remove(join(this.dir, path));
          continue;
        }
        entries.push([path, deltaText(delta), 'C']);
        this.dirtyBuckets.add(b);
      }
      await this.append(journalRecord(entries)); // commit point
    } catch (err) {
      // Not committed: nothing of it may stay behind, or a full disk stays full.
      await each(staged, IO_CONCURRENCY, (f) => unlink(f).catch(() => {}));
      throw storageError(err, this.dir);
    }
    for (const [file, text] of rewritten) this.pending.set(file, text);
    for (const [key, data] of changes) if (data === null || big) this.pending.delete(fileName(key));
    for (const [path, state] of logStates) this.logFiles.set(path, state);
    for (const [idx, append, removed, lines] of indexed) {
      append.forEach((a, i) => idx.add(a.row.id, logOrder(a.row), Buffer.byteLength(lines[i]!)));
      for (const id of removed) idx.remove(id);
    }
    if (big) for (const b of changed.keys()) this.dirtyBuckets.delete(b);
    try {
      await each(renames, IO_CONCURRENCY, ([tmp, target]) => rename(join(this.dir, tmp), join(this.dir, target)));
      await each(deletes, IO_CONCURRENCY, (f) => unlink(join(this.dir, f)).catch(() => {}));
      for (const [, target] of renames) this.unsynced.add(target);
    } catch {
      // Committed (the record is durable): its files are written from the journal, as a restart would.
      this.unapplied = true;
      await this.applyJournal().catch((err) => {
        throw storageError(err, this.dir);
      });
    }
    for (const [b, delta] of changed) {
      this.buckets.set(b, applyChanges(before.get(b)!, delta));
      this.texts.delete(b);
    }
    for (const [key, v] of versions) {
      if (v === 0) this.versions.delete(key);
      else this.versions.set(key, v);
    }
    // Committed already: a checkpoint that fails leaves the journal for the next one (or a start).
    if (this.journalBytes >= (this.opts.checkpointBytes ?? CHECKPOINT_BYTES)) await this.checkpoint().catch(() => {});
    return versions;
  }

  /** Appends `record` to the journal and makes it durable; on failure, cuts it off again. */
  private async append(record: string): Promise<void> {
    if (!this.journal) {
      const fd = await (this.opts.openFile ?? openFileHandle)(join(this.dir, JOURNAL), 'a', 0o600);
      try {
        this.journalBytes = (await fd.stat()).size;
        await syncDir(this.dir); // the journal's own name survives a crash
      } catch (err) {
        await fd.close().catch(() => {});
        throw err;
      }
      this.journal = fd;
    }
    const fd = this.journal;
    if (this.journalTorn) {
      await fd.truncate(this.journalBytes);
      this.journalTorn = false;
    }
    try {
      await fd.writeFile(record);
      await fd.datasync();
    } catch (err) {
      await fd.truncate(this.journalBytes).catch(() => (this.journalTorn = true));
      throw err;
    }
    this.journalBytes += Buffer.byteLength(record);
  }

  /**
   * Makes every file written since the last checkpoint durable (each fsynced once, then their
   * folders) and empties the journal: a start after a crash has nothing of it to replay.
   * `closing`: the journal is removed next (close), so it is not emptied first: a crash before
   * its removal replays it over files that hold the same texts already.
   */
  private async checkpoint(closing = false): Promise<void> {
    const logLines = [...this.logFiles].filter(([, l]) => l.lines.length);
    if (!this.journal || (this.journalBytes === 0 && !this.unsynced.size && !this.dirtyBuckets.size && !this.pending.size && !logLines.length)) return;
    if (this.unapplied) await this.applyJournal();
    // One pass over every file, 16 at a time: the shards committed again since the last
    // checkpoint (each written once, its last text) and the catalog's buckets, each staged
    // fsynced and renamed; the files renamed into place by their commits, fsynced. Staged
    // without fsync, a rewritten shard was opened a second time to be fsynced after the others
    // were written (an in-process push closes on ~12 such files and ~20 buckets).
    const kept = [...this.pending];
    const dirty = [...this.dirtyBuckets];
    const rewritten = new Set(kept.map(([file]) => relative(this.dir, join(this.shardDir, file))));
    const files = [...this.unsynced].filter((f) => !rewritten.has(f));
    const done = new Set([...rewritten, ...files]);
    const jobs: (() => Promise<void>)[] = [
      ...kept.map(([file, text]) => async () => {
        const target = join(this.shardDir, file);
        await rename(await stageFile(target, text, this.opts.openFile), target);
      }),
      ...dirty.map((b) => async () => {
        const path = join(this.sumDir, bucketFile(b));
        const sums = this.buckets.get(b)!;
        if (sums.size) await rename(await stageFile(path, bucketText(sums), this.opts.openFile), path);
        else await unlink(path).catch((err) => (err.code === 'ENOENT' ? undefined : Promise.reject(err)));
      }),
      // Each log's lines since the last checkpoint, appended where its file ends, and fsynced.
      ...logLines.map(([path, log]) => async () => {
        await mkdir(this.logDir, { recursive: true, mode: 0o700 });
        const fd = await (this.opts.openFile ?? openFileHandle)(join(this.dir, path), 'a', 0o600);
        const text = log.lines.join('');
        try {
          const size = (await fd.stat()).size;
          if (size < log.file) throw new Error(`${path} holds ${size} bytes, fewer than the ${log.file} committed`);
          if (size > log.file) await fd.truncate(log.file); // an append that failed half way
          await fd.writeFile(text);
          await fd.sync();
        } finally {
          await fd.close();
        }
        this.logFiles.set(path, { file: log.file + Buffer.byteLength(text), lines: [], bytes: 0 });
      }),
      ...files.map((f) => async () => {
        let fd: FileHandle;
        try {
          fd = await (this.opts.openFile ?? openFileHandle)(join(this.dir, f), 'r', 0o600);
        } catch (err: any) {
          if (err.code === 'ENOENT') return; // deleted since: its folder's sync covers it
          throw err;
        }
        try {
          await fd.sync();
        } finally {
          await fd.close();
        }
      }),
    ];
    await each(jobs, IO_CONCURRENCY, (job) => job());
    for (const [file, text] of kept) if (this.pending.get(file) === text) this.pending.delete(file);
    await Promise.all([syncDir(this.shardDir), syncDir(this.sumDir), existsSync(this.logDir) ? syncDir(this.logDir) : undefined]);
    if (!closing) {
      await this.journal.truncate(0);
      await this.journal.datasync();
      this.journalBytes = 0;
      this.journalTorn = false;
    }
    for (const f of done) this.unsynced.delete(f);
    for (const b of dirty) this.dirtyBuckets.delete(b);
  }

  /**
   * Writes, durably, each file's last text in the journal (or deletes it): a commit that passed
   * its commit point but did not reach its files. The journal is emptied after.
   */
  private async applyJournal(): Promise<void> {
    const j = await readJournal(join(this.dir, JOURNAL));
    if (j) await this.replay(j.entries);
    if (this.journal) {
      await this.journal.truncate(0);
      await this.journal.datasync();
      this.journalBytes = 0;
      this.journalTorn = false;
    }
    this.unsynced.clear();
    this.dirtyBuckets.clear();
    this.pending.clear();
    for (const [path, log] of this.logFiles) if (log.lines.length) this.logFiles.set(path, { file: log.file + log.bytes, lines: [], bytes: 0 });
    this.unapplied = false;
  }

  /** Each file's last text of `entries` written and fsynced (or the file deleted), then their folders. */
  private async replay(all: JournalEntry[]): Promise<void> {
    // Log files: their entries in order (src/store/log-files.ts replayLog), not each one's last.
    const logEntries = new Map<string, JournalEntry[]>();
    const entries: JournalEntry[] = [];
    for (const e of all) {
      if (isAppend(e) || e[0].startsWith(`${LOGS}/`)) logEntries.get(e[0])?.push(e) ?? logEntries.set(e[0], [e]);
      else entries.push(e);
    }
    lastWrites(all); // every path checked to be inside the data directory
    await each([...logEntries], IO_CONCURRENCY, ([path, list]) => replayLog(this.dir, path, list, this.opts.openFile));
    if (logEntries.size) await syncDir(this.logDir);
    const last = lastWrites(entries);
    await each([...last], IO_CONCURRENCY, async ([path, [text, move, changes]]) => {
      const target = join(this.dir, path);
      if (changes) return this.replayBucket(path, text, move, changes);
      if (move) {
        // Its temp file was fsynced before the record; gone when it was renamed already.
        await rename(join(this.dir, text!), target).catch((err) => {
          if (err.code !== 'ENOENT') throw err;
        });
        return;
      }
      if (text === null) {
        await unlink(target).catch((err) => {
          if (err.code !== 'ENOENT') throw err;
        });
        return;
      }
      await mkdir(join(target, '..'), { recursive: true, mode: 0o700 });
      await rename(await stageFile(target, text!, this.opts.openFile), target);
    });
    const dirs = new Set([...last.keys()].map((p) => join(this.dir, p, '..')));
    await Promise.all([...dirs].map((d) => syncDir(d)));
  }

  /**
   * Writes a catalog bucket as `changes` (a journal's `C` entries, merged) leave it over `base`:
   * its last whole text in the journal (null: deleted; `move`: a big commit's temp file, renamed
   * into place first), or its file (undefined). Each change sets an entry to its value, so a
   * file a checkpoint wrote already (a crash before it emptied the journal) is written the same.
   */
  private async replayBucket(path: string, base: string | null | undefined, move: boolean, changes: Map<string, string | null>): Promise<void> {
    const b = bucketAt(path);
    if (b === undefined) throw new Error(`${JOURNAL}: a record changes entries of ${path}, not a bucket of the catalog`);
    const target = join(this.dir, path);
    if (move)
      await rename(join(this.dir, base!), target).catch((err) => {
        if (err.code !== 'ENOENT') throw err;
      });
    const sums = await bucketReplayed(this.dir, b, base, move, changes); // the temp file renamed: its bucket file read
    if (!sums.size) {
      await unlink(target).catch((err) => {
        if (err.code !== 'ENOENT') throw err;
      });
      return;
    }
    await mkdir(join(target, '..'), { recursive: true, mode: 0o700 });
    await rename(await stageFile(target, bucketText(sums), this.opts.openFile), target);
  }

  /**
   * Hard-links every file of the data directory but the lock and temp files into `target` (a new
   * folder on the same file system), between two commits: a consistent copy that costs one
   * link per file. Commits replace files by rename, never in place, so the links keep the
   * snapshot's contents while the store goes on.
   */
  snapshot(target: string, skip: (rel: string) => boolean = () => false): Promise<number> {
    return this.exclusive(async () => {
      await this.checkpoint(); // the catalog's files are written at checkpoints
      let count = 0;
      const walk = async (from: string, to: string) => {
        await mkdir(to, { recursive: true, mode: 0o700 });
        for (const ent of await readdir(from, { withFileTypes: true })) {
          const src = join(from, ent.name);
          const r = relative(this.dir, src);
          if (src === target || skip(r) || r === JOURNAL || ent.name.endsWith('.tmp') || ent.name.endsWith('.stale')) continue;
          if (ent.isDirectory()) await walk(src, join(to, ent.name));
          else if (ent.isFile()) {
            // A log file is appended in place at checkpoints: copied, so the snapshot keeps its rows as they are now.
            if (r.startsWith(`${LOGS}/`)) await copyFile(src, join(to, ent.name));
            else await link(src, join(to, ent.name));
            count++;
          }
        }
      };
      await walk(this.dir, target);
      return count;
    });
  }

  /**
   * Closes the journal without a checkpoint: nothing more is made durable, and the journal stays.
   * For a folder removed right after (the warm-up's scratch commits, server/warm-up.ts); a store
   * closes with `close`.
   */
  async discard(): Promise<void> {
    await this.exclusive(async () => {
      this.closed = true;
      watchClosed(this);
      const fd = this.journal;
      this.journal = undefined;
      await fd?.close();
    });
  }

  /** Checkpoints and removes the journal (kept, for the next start to replay, if that fails). */
  async close(): Promise<void> {
    await this.exclusive(async () => {
      this.closed = true;
      watchClosed(this);
      const fd = this.journal;
      if (!fd) return;
      try {
        await this.checkpoint(true);
        await unlink(join(this.dir, JOURNAL));
        await syncDir(this.dir);
      } catch {
        // The journal stays: the next open replays it.
      } finally {
        this.journal = undefined;
        await fd.close().catch(() => {});
      }
    });
  }
}
