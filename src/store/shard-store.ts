import { DocsError } from '../kernel/errors.js';
import { withReplayedIds } from '../kernel/ids.js';
import { logKeysOf, ShardConflict, type BackendHealth, type LoadedShard, type LogChanges, type ShardBackend, type ShardData } from './backend.js';
import {
  CATALOG_KEY,
  DIR,
  SEGMENTS,
  LAYOUT,
  LAYOUT_VERSION,
  allDirKeys,
  dirKey,
  dirValues,
  directoryFields,
  isStoreTable,
  SEGMENT_BYTES,
  segmentsOf,
  segmentsToMerge,
  type SegmentInfo,
} from './layout.js';
import { migrateLayout } from './migrate-layout.js';
import type { NamedReadTx, NamedWriteTx, Row, RowChanges, Store, TableSpec } from './port.js';
import { Rows, deepFreeze, freezeFields, freezeMeasured, heapBytes, valuesOf } from './rows.js';
import { filterOf, idHash, mayHold, usableFilter } from './segment-filter.js';
import { MARKER, buildSummaries, maintain, summariesCurrent } from './summaries.js';

type Changes = Map<string, Map<string, Row | null>>; // table -> id -> row (null = deleted)

/** A loaded shard. `pins`: operations using it now (never evicted under them). */
interface Entry extends LoadedShard {
  pins: number;
  used: number;
  stale?: boolean;
  /**
   * Of a stale copy in use: the newer copy another process's notice carried (`invalidate`),
   * taken in its place once it is let go or loaded again, instead of a read of the backend.
   */
  next?: LoadedShard;
}

/** Shards always in memory: small, and read by nearly every operation. */
const RESIDENT = new Set(['root', CATALOG_KEY]);
/** A function that keeps reaching new shards after this many loads is looping, not loading. */
const MAX_RUNS = 10_000;
// Of memory (rows as parsed, rows.ts heapBytes), no longer of shard text: the same bound holds
// 1.1–2x less, and never more memory than before whatever the shards (bodies are 1.1x their text).
const DEFAULT_CACHE_MB = 128;
/** What the store's row maps and indexes keep per loaded row (map entries, index sets), about. */
const ROW_INDEX_BYTES = 64;
/** A batch refused this many times in a row by a shared backend is answered 503 (unavailable). */
const MAX_CONFLICTS = 200;
const storable = (key: string) => key.length <= 1024 && !/[\u0000-\u001f\u007f]/.test(key);

/**
 * One operation (a read, or one write function) while it runs: the shards it used (pinned
 * until it ends, with the version seen, for the optimistic check of shared backends) and the
 * shards it reached that were not loaded (it runs again once they are).
 */
class Op {
  readonly pins = new Map<string, Entry>();
  // The rest is made on first use: most operations (a warm write, every read of a loaded shard)
  // never miss a shard nor walk a segmented group, and a write makes several operations.
  misses?: Set<string>;
  /** Ids the function made (src/kernel/ids.ts): the same again when it runs again. */
  readonly ids: string[] = [];
  /** Groups found complete in this operation (skips re-checking their segments on every get). */
  groups?: Set<string>;
  /** Groups a lookup by id missed a segment of, in this run; and in how many runs so far. */
  partial?: Set<string>;
  partialRuns?: Map<string, number>;
}

/**
 * A function that missed segments of one group in this many runs (a walk from row to row, each
 * found only once the previous one is loaded) loads the rest of the group at once: its cost is
 * then bounded by the whole group's, as before filters, not by one run per segment.
 */
const PARTIAL_RUNS = 2;

export interface ShardStoreOptions {
  /** Bound of the loaded shards' serialized size; least recently used shards are evicted beyond. */
  cacheBytes?: number;
}

/**
 * The store engine. Rows live in shards (src/store/tables.ts); only the shards an operation
 * touches are loaded, on demand, and kept in a cache bounded by size (least recently used
 * evicted, never one in use). A function that reaches a shard not in memory notes it and goes
 * on; its result is discarded and it runs again once the shards are loaded, so read and write
 * functions stay synchronous and all-or-nothing.
 *
 * Writes queue up; one loop runs the queued functions in order against a batch layer, then
 * commits the shards they touched in one atomic, durable commit (group commit), then makes the
 * batch visible to reads and resolves each caller. A failed commit rejects the whole batch.
 * A shared backend (PostgreSQL) may refuse a commit because another process changed a shard
 * read: those shards are reloaded and the batch runs again.
 */
export class ShardStore implements Store {
  readonly specs: Map<string, TableSpec>;
  readonly rows: Rows;
  private readonly cache = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<void>>();
  /** Keys another process committed while this one was reading them (their copy is stale on arrival). */
  private readonly changedWhileLoading = new Set<string>();
  private bytes = 0;
  private tick = 0;
  /** Changes on every commit and every change heard from another process (`generation()`). */
  private gen = 0;
  private queue: Job[] = [];
  private running: Promise<void> | null = null;
  private closed = false;
  private readonly limit: number;
  /** Log tables (TableSpec.log) whose rows the backend keeps one by one (ShardBackend.logs). */
  readonly logTables: ReadonlySet<string>;
  /** Set when the backend is shared between processes (Store.claim). */
  readonly claim?: (job: string) => Promise<{ release(): Promise<void> } | null>;

  private constructor(
    readonly backend: ShardBackend,
    specs: TableSpec[],
    opts: ShardStoreOptions,
  ) {
    this.specs = new Map(specs.map((s) => [s.name, s]));
    this.rows = new Rows(this.specs);
    this.logTables = new Set(backend.logs ? specs.filter((s) => s.log && s.locateId).map((s) => s.name) : []);
    if (backend.claim) this.claim = (job) => backend.claim!(job);
    const mb = Number(process.env.DOCS_CACHE_MB);
    this.limit = opts.cacheBytes ?? (mb > 0 ? mb : DEFAULT_CACHE_MB) * 1024 * 1024;
  }

  static async open(backend: ShardBackend, specs: TableSpec[], opts: ShardStoreOptions = {}): Promise<ShardStore> {
    await backend.open();
    try {
      return await ShardStore.start(backend, specs, opts);
    } catch (err) {
      // The caller gets no store to close: the backend's files and connections are closed here.
      await backend.close().catch(() => {});
      throw err;
    }
  }

  /** A store on `backend`, just opened: its catalog read (made, or the layout migrated, in a new or older one). */
  private static async start(backend: ShardBackend, specs: TableSpec[], opts: ShardStoreOptions): Promise<ShardStore> {
    const store = new ShardStore(backend, specs, opts);
    // Listening before the first load: a commit of another process between the load and the
    // listener's start would otherwise never reach this cache (root stays in memory).
    backend.subscribe?.((keys, shards) => store.invalidate(keys, shards));
    await backend.whenListening?.();
    let first = await backend.load([CATALOG_KEY, 'root']);
    const catalog = first.get(CATALOG_KEY)!;
    if (catalog.version === 0) {
      const keys = await backend.keys();
      if (keys.length) await migrateLayout(backend, store.specs, keys);
      else {
        const data: ShardData = { [LAYOUT]: { store: { id: 'store', layout: LAYOUT_VERSION } } };
        await backend.commit(new Map([[CATALOG_KEY, data]]), new Map([[CATALOG_KEY, 0]])).catch((err) => {
          if (!(err instanceof ShardConflict)) throw err; // another process created it first
        });
      }
      first = await backend.load([CATALOG_KEY, 'root']);
    }
    const layout = first.get(CATALOG_KEY)!.data[LAYOUT]?.store?.layout;
    if (layout !== LAYOUT_VERSION) {
      throw new DocsError('unavailable', `the store has layout ${layout}; this version of docs reads layout ${LAYOUT_VERSION}`);
    }
    for (const [key, shard] of first) store.insert(key, shard);
    // A store written before summaries, with summaries of an older SHAPE, or a new one: built once, from the rows, in one write.
    if (specs.some((s) => s.summary) && store.specs.has('meta') && !summariesCurrent(first.get('root')?.data.meta?.[MARKER])) {
      await store.write((tx) => buildSummaries(tx, specs));
    }
    return store;
  }

  // -------------------------------------------------------------------------------------------
  // The cache of loaded shards.

  /** The loaded shard `key`, used by `op` (pinned, marked recently used); undefined if not loaded. */
  use(key: string, op: Op): Entry | undefined {
    const e = this.cache.get(key);
    if (!e || e.stale) return undefined;
    e.used = ++this.tick;
    const held = op.pins.get(key);
    if (held !== e) {
      // A run after a reload reads the new copy: the op's pin (and the version its commit is
      // checked against) follows what it reads now.
      if (held) held.pins--;
      op.pins.set(key, e);
      e.pins++;
    }
    return e;
  }

  /** Is shard `key` in memory and current (without using it)? */
  loaded(key: string): boolean {
    const e = this.cache.get(key);
    return !!e && !e.stale;
  }

  /** TableSpec.heapPerTextChar of a shard holding only rows of such tables (one table: a summary's). */
  private textSized(shard: LoadedShard): number | undefined {
    let perChar: number | undefined;
    for (const table in shard.data) {
      const p = this.specs.get(table)?.heapPerTextChar;
      if (!p || (perChar !== undefined && p !== perChar)) return undefined;
      perChar = p;
    }
    return shard.size > 0 ? perChar : undefined;
  }

  private insert(key: string, shard: LoadedShard) {
    if (this.cache.has(key)) return;
    // What the shard takes in memory (its rows frozen and measured in one walk, plus what the
    // store's index keeps of each), not its file's size: the cache bound counts memory.
    // A shard of rows sized by their text (TableSpec.heapPerTextChar) is not walked value by value.
    const perChar = this.textSized(shard);
    let size = perChar ? Math.round(shard.size * perChar) : 0;
    for (const [table, rows] of Object.entries(shard.data)) {
      if (!perChar && (isStoreTable(table) || !this.specs.has(table))) {
        size += heapBytes(rows); // directories, segment lists; a table of a newer version: kept on disk
        continue;
      }
      for (const row of Object.values(rows)) {
        if (perChar) freezeFields(row);
        else size += freezeMeasured(row);
        size += ROW_INDEX_BYTES;
        this.rows.set(table, row);
      }
    }
    this.cache.set(key, { ...shard, size, pins: 0, used: ++this.tick });
    this.bytes += size;
  }

  private evict(key: string) {
    const e = this.cache.get(key);
    if (!e) return;
    this.cache.delete(key);
    this.bytes -= e.size;
    for (const [table, rows] of Object.entries(e.data)) {
      if (isStoreTable(table) || !this.specs.has(table)) continue;
      // Only rows that are this shard's: a row another process moved may be here in an old copy.
      const current = this.rows.table(table);
      for (const [id, row] of Object.entries(rows)) if (current.get(id) === row) this.rows.remove(table, id);
    }
  }

  /** Loads `keys` (and the segments of the groups among them); concurrent loads of a key share one read. */
  private async load(keys: Iterable<string>): Promise<void> {
    const want = [...keys].filter((k) => !this.cache.get(k) || this.cache.get(k)!.stale);
    // A stale copy goes now, even in use: its users hold the old entry and will see the new one
    // (the copy a notice carried, when there is one: not read again).
    for (const k of want) if (this.cache.get(k)?.stale) this.renew(k);
    // A key made from a hostile id (a control character, kilobytes long) names no shard that
    // can exist: it is absent, without asking the backend (a file name or a PostgreSQL string
    // could not even hold it).
    for (const k of want) if (!storable(k)) this.insert(k, { data: {}, version: 0, size: 0 });
    const fresh = want.filter((k) => !this.loading.has(k) && !this.cache.has(k));
    if (fresh.length) {
      for (const k of fresh) this.changedWhileLoading.delete(k);
      const batch = this.backend.load(fresh).then(
        (loaded) => ({ loaded, failed: new Map<string, unknown>() }),
        async (err) => {
          // One damaged shard fails the read of its whole batch: the others of the batch are
          // read alone, so an operation that needs only them (loading concurrently with one
          // that reached the damaged shard) is not refused for a shard it never touches.
          if (fresh.length === 1) throw err;
          const loaded = new Map<string, LoadedShard>();
          const failed = new Map<string, unknown>();
          await Promise.all(
            fresh.map(async (k) => {
              try {
                for (const [key, s] of await this.backend.load([k])) loaded.set(key, s);
              } catch (e) {
                failed.set(k, e);
              }
            }),
          );
          return { loaded, failed };
        },
      );
      const p = batch.then(async ({ loaded, failed }) => {
        for (const [k, s] of loaded) {
          this.insert(k, s);
          // Another process committed it while it was being read: this copy may predate that.
          if (this.changedWhileLoading.delete(k)) this.cache.get(k)!.stale = true;
        }
        // Segments without a filter are read by every lookup in their group: loaded with it. The
        // others only when a lookup's id may be in them (View.segmentRow) or the group is read whole.
        const segments = [...loaded.values()]
          .flatMap((s) =>
            segmentsOf(s.data)
              .filter((g) => !usableFilter(g.filter))
              .map((g) => g.id),
          )
          .filter((k) => !this.cache.has(k));
        if (segments.length) for (const [k, s] of await this.backend.load(segments)) this.insert(k, s);
        return failed;
      });
      const perKey = new Map<string, Promise<void>>();
      const settled = p.finally(() => {
        for (const k of fresh) if (this.loading.get(k) === perKey.get(k)) this.loading.delete(k);
      });
      for (const k of fresh) {
        const q = settled.then((failed) => {
          if (failed.has(k)) throw failed.get(k);
        });
        perKey.set(k, q);
        this.loading.set(k, q);
      }
    }
    await Promise.all(want.map((k) => this.loading.get(k)));
  }

  /** Drops the copy of `key`, for the newer one a notice carried when there is one (`Entry.next`), else to be read again. */
  private renew(key: string) {
    const e = this.cache.get(key);
    this.evict(key);
    if (e?.next && !this.loading.has(key)) this.insert(key, e.next);
  }

  private release(op: Op) {
    for (const [key, e] of op.pins) {
      e.pins--;
      if (e.stale && e.pins === 0 && this.cache.get(key) === e) this.renew(key);
    }
    op.pins.clear();
    if (this.bytes > this.limit) this.shrink();
  }

  /** Evicts least recently used shards not in use until the cache is within 80% of its bound. */
  private shrink() {
    const target = this.limit * 0.8;
    const idle = [...this.cache].filter(([k, e]) => e.pins === 0 && !RESIDENT.has(k)).sort((a, b) => a[1].used - b[1].used);
    for (const [k] of idle) {
      if (this.bytes <= target) break;
      this.evict(k);
    }
  }

  /**
   * Shards another process changed: dropped now, or when the operations using them end. A shard
   * the notice carried (`shards`, as committed) replaces a copy held and not in use, unless the
   * copy is as new: it is not read again.
   */
  private invalidate(keys: string[], shards?: Map<string, LoadedShard>) {
    this.gen++;
    for (const k of keys[0] === '*' ? [...this.loading.keys()] : keys) if (this.loading.has(k)) this.changedWhileLoading.add(k);
    for (const k of keys[0] === '*' ? [...this.cache.keys()] : keys) {
      const e = this.cache.get(k);
      if (!e) continue;
      const sent = shards?.get(k);
      // Newer than the copy (never older: after a commit of ours whose outcome is unknown, the
      // copy is stale and the notice may predate that commit).
      if (sent && sent.version > e.version && e.pins === 0 && !this.loading.has(k)) {
        this.evict(k);
        this.insert(k, sent);
        continue;
      }
      if (sent && sent.version <= e.version && !e.stale) continue; // as new already (a commit of ours)
      if (e.pins === 0) this.evict(k);
      else {
        // In use: the copy sent replaces it once let go (a write of the other server to a shard
        // this one's batch was committing made its next write wait for a read). A notice without
        // the shard (past the payload's bound) leaves nothing to take: it is read again.
        e.stale = true;
        e.next = sent && sent.version > e.version && sent.version > (e.next?.version ?? 0) && !this.loading.has(k) ? sent : undefined;
      }
    }
  }

  /** Runs `fn` until it has everything it needs loaded (then returns its result or throws its error). */
  private async run<R>(op: Op, fn: () => R): Promise<R> {
    for (let runs = 0; ; runs++) {
      let result: R | undefined;
      let error: unknown;
      let threw = false;
      try {
        result = withReplayedIds(op.ids, fn);
      } catch (err) {
        error = err;
        threw = true;
      }
      if (!op.misses?.size) {
        if (threw) throw error;
        return result as R;
      }
      if (runs >= MAX_RUNS) throw new DocsError('bug', `an operation kept reaching unloaded shards (${[...op.misses!].slice(0, 3).join(', ')})`);
      const misses = op.misses!;
      op.misses = undefined;
      op.groups = undefined;
      if (op.partial) {
        const runs = (op.partialRuns ??= new Map());
        for (const g of op.partial) runs.set(g, (runs.get(g) ?? 0) + 1);
        op.partial = undefined;
      }
      await this.load(misses);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Reads and writes.

  generation(): number {
    return this.gen;
  }

  async read<R>(fn: (tx: NamedReadTx) => R): Promise<R> {
    const op = new Op();
    try {
      return await this.run(op, () => fn(new View(this, [], op)));
    } finally {
      this.release(op);
    }
  }

  write<R>(fn: (tx: NamedWriteTx) => R): Promise<R> {
    if (this.closed) return Promise.reject(new DocsError('unavailable', 'the store is closed'));
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ fn, resolve, reject });
      this.kick();
    });
  }

  rehearse<R>(fn: (tx: NamedWriteTx) => R): Promise<{ result: R; changes: RowChanges }> {
    return this.write((tx) => {
      const result = fn(tx);
      if (!(tx instanceof Tx)) throw new DocsError('bug', 'a write runs in a Tx');
      // What its commit would rewrite, loaded as a commit's plan loads it (runBatch): a shard
      // not loaded yet runs the function again with it, as a write's first run would.
      if (tx.changes.size) tx.plan(tx.changes);
      // Thrown after the function ran: runBatch refuses this write alone, so nothing is committed.
      throw new Rehearsed(result, tx.changes);
    }).then(
      () => {
        throw new DocsError('bug', 'a rehearsed write was committed');
      },
      (err: unknown) => {
        if (!(err instanceof Rehearsed)) throw err;
        return { result: err.result as R, changes: err.changes };
      },
    );
  }

  private kick() {
    if (this.running) return;
    this.running = this.drain().finally(() => {
      this.running = null;
      // A write queued while the loop was finishing (after its last check) starts a new loop.
      if (this.queue.length) this.kick();
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      // Let writes that arrive in the same tick join this batch.
      await new Promise((r) => setImmediate(r));
      await this.runBatch(this.queue.splice(0));
    }
  }

  private async runBatch(jobs: Job[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const batch: Changes = new Map();
      const done: [Job, unknown][] = [];
      const ops: Op[] = [];
      try {
        for (const job of jobs) {
          const op = new Op();
          ops.push(op);
          try {
            let tx!: Tx;
            const result = await this.run(op, () => {
              tx = new Tx(this, batch, op);
              const r = job.fn(tx);
              if (r instanceof Promise) throw new DocsError('bug', 'a write function must be synchronous');
              return r;
            });
            for (const [table, rows] of tx.changes) {
              let m = batch.get(table);
              if (!m) batch.set(table, (m = new Map()));
              for (const [id, r] of rows) m.set(id, r);
            }
            done.push([job, result]);
          } catch (err) {
            job.reject(err);
          }
        }
        try {
          if (batch.size) {
            const op = new Op();
            ops.push(op);
            await this.run(op, () => new Tx(this, new Map(), op).plan(batch));
            await this.commit(batch, ops);
          }
          for (const [job, result] of done) job.resolve(result);
          return;
        } catch (err) {
          if (err instanceof ShardConflict && attempt < MAX_CONFLICTS) {
            for (const k of err.keys) this.renew(k);
            // Two servers writing one hot shard would otherwise race again at once: a jittered,
            // growing pause lets the other commit land first.
            await new Promise((r) => setTimeout(r, Math.random() * Math.min(100, 2 ** attempt)));
            jobs = done.map(([job]) => job); // the rejected ones have their answer
            // Refused again: another process keeps committing shards this batch touches (two
            // servers writing the same spaces). A big batch would keep losing to its small commits,
            // so it goes on in halves, the later half queued first for the next batch (in order).
            if (attempt >= 1 && jobs.length > 1) this.queue.unshift(...jobs.splice(Math.ceil(jobs.length / 2)));
            continue;
          }
          // A backend's DocsError says why (a full disk, a damaged file, PostgreSQL unreachable):
          // kept in the one line. A connection lost after COMMIT was sent leaves the outcome unknown.
          const why = err instanceof DocsError ? ` (${err.message})` : '';
          const e = (err as { outcomeUnknown?: boolean } | undefined)?.outcomeUnknown
            ? new DocsError('unavailable', `the write's outcome is unknown${why}; it may have been made: read before trying again`, { cause: err })
            : new DocsError('unavailable', `the write could not be made durable${why}; nothing was changed`, { cause: err });
          for (const [job] of done) job.reject(e);
          return;
        }
      } finally {
        for (const op of ops) this.release(op);
      }
    }
  }

  /** Writes `batch` to the shards it touches (rows, directories, segments) in one commit. */
  private async commit(batch: Changes, ops: Op[]): Promise<void> {
    const next = new Map<string, ShardData | null>();
    const copied = new Set<string>();
    const shard = (key: string): ShardData => {
      let d = next.get(key);
      if (!d) next.set(key, (d = { ...(this.cache.get(key)?.data ?? {}) }));
      return d;
    };
    const tableIn = (key: string, table: string) => {
      const d = shard(key);
      const k = key + '\0' + table;
      if (!copied.has(k)) {
        d[table] = { ...(d[table] ?? {}) };
        copied.add(k);
      }
      return d[table]!;
    };
    // Each directory entry is copied once per commit, not once per row: a batch creating
    // thousands of spaces of one organization edits one entry of thousands of ids.
    const copiedIds = new Map<string, [Record<string, unknown>, string]>();
    const directory = (table: string, field: string, value: string, edit: (ids: Record<string, string>) => void) => {
      const dk = dirKey(table, field, value);
      const dir = tableIn(dk, DIR);
      const k = `${dk}\0${value}`;
      if (!copiedIds.has(k)) {
        dir[value] = { ...(dir[value] ?? {}) };
        copiedIds.set(k, [dir, value]);
      }
      edit((dir[value] ??= {}) as Record<string, string>);
    };
    const added = new Map<string, [string, Row][]>(); // group -> new immutable rows
    const moves: [string, string, Row | null][] = [];
    const logs: LogChanges = { append: [], remove: [] };
    for (const [table, rows] of batch) {
      const spec = this.specs.get(table)!;
      if (this.logTables.has(table)) {
        // Appended or removed as rows of their own, without the log's other rows (TableSpec.log).
        for (const [id, row] of rows) {
          if (row) logs.append.push({ log: spec.shard(row), table, row });
          else logs.remove.push({ log: spec.locateId!(id), id });
        }
        continue;
      }
      const fields = directoryFields(spec);
      for (const [id, row] of rows) {
        const old = this.rows.table(table).get(id);
        if (spec.immutable) {
          if (row && !old) {
            const g = spec.shard(row);
            if (!added.has(g)) added.set(g, []);
            added.get(g)!.push([table, row]);
          } else if (!row && old) this.removeFromSegments(spec.shard(old), table, id, tableIn, shard, next);
          else continue;
          moves.push([table, id, row]);
          continue;
        }
        const oldKey = old ? spec.shard(old) : undefined;
        const newKey = row ? spec.shard(row) : undefined;
        if (oldKey && oldKey !== newKey) delete tableIn(oldKey, table)[id];
        if (row) tableIn(newKey!, table)[id] = row;
        for (const f of fields) {
          const before = old ? dirValues(old, f) : [];
          const after = row ? dirValues(row, f) : [];
          for (const v of before) if (!after.includes(v) || oldKey !== newKey) directory(table, f, v, (ids) => delete ids[id]);
          for (const v of after) if (!before.includes(v) || oldKey !== newKey) directory(table, f, v, (ids) => (ids[id] = newKey!));
        }
        moves.push([table, id, row]);
      }
    }
    for (const [dir, value] of copiedIds.values()) if (Object.keys(dir[value] as object).length === 0) delete dir[value];
    for (const [group, rows] of added) this.appendSegment(group, rows, shard, next);
    for (const [key, data] of next) {
      if (!data) continue;
      for (const [table, rows] of Object.entries(data)) if (Object.keys(rows).length === 0) delete data[table];
      if (Object.keys(data).length === 0) next.set(key, null);
    }
    for (const [key, data] of next) if (data === null && !this.cache.has(key)) next.delete(key); // never existed
    const logged = logs.append.length + logs.remove.length > 0;
    if (next.size === 0 && !logged) return;
    for (const key of next.keys()) if (!storable(key)) throw new DocsError('invalid', `an id cannot be stored: ${JSON.stringify(key.slice(0, 80))}`);
    // Each shard is checked against the OLDEST version any operation of the batch read: a write
    // function may have read version 5 of a shard another process then changed, and the plan
    // (or a later function) reloaded it as version 6; checking 6 would commit a change computed
    // from 5 over 6 (a lost update). With 5 the backend refuses and the batch runs again.
    const expected = new Map<string, number>();
    for (const op of ops) for (const [k, e] of op.pins) expected.set(k, Math.min(e.version, expected.get(k) ?? Infinity));
    for (const k of next.keys()) if (!expected.has(k)) expected.set(k, this.cache.get(k)?.version ?? 0);
    let versions: Map<string, number>;
    try {
      versions = await (logged ? this.backend.commit(next, expected, logs) : this.backend.commit(next, expected));
    } catch (err) {
      // Unless refused, the commit may have been made after all (a connection lost after COMMIT
      // was sent): what is cached of these shards is read again rather than trusted.
      if (!(err instanceof ShardConflict)) this.invalidate([...next.keys(), ...logKeysOf(logs)]);
      throw err;
    }
    // A log this process holds a copy of is read again when next used (and a load of it in
    // flight may predate this commit): its rows are not kept in step here.
    if (logged) this.invalidate(logKeysOf(logs));
    this.gen++;
    for (const [key, data] of next) {
      const old = this.cache.get(key);
      if (data === null) {
        if (old) {
          this.cache.delete(key);
          this.bytes -= old.size;
        }
        continue;
      }
      const size = old?.size ?? heapBytes(data);
      const e: Entry = { data, version: versions.get(key) ?? 0, size, pins: 0, used: ++this.tick };
      // This batch's operations holding the old entry release the new one. Others holding it (a
      // read, a batch committing meanwhile) release the old one: counted on the new one, their
      // pins would never be released, and the entry never evicted nor replaced by a notice.
      for (const op of ops) {
        if (!old || op.pins.get(key) !== old) continue;
        op.pins.set(key, e);
        e.pins++;
        old.pins--;
      }
      if (old) this.bytes -= old.size;
      this.bytes += size;
      this.cache.set(key, e);
    }
    for (const [table, id, row] of moves) {
      if (row) this.rows.set(table, row);
      else this.rows.remove(table, id);
    }
  }

  /**
   * Adds new immutable rows to `group` as a new segment, merging into it the segments
   * `segmentsToMerge` names (src/store/layout.ts): like a binary counter, so a group has O(log n)
   * segments below the seal and a write rewrites what it adds plus, amortized, O(log n) per row;
   * or by size tiers of `segmentFanOut` (TableSpec). Without `segmentFanOut` the result is cut
   * into segments of about SEGMENT_BYTES. Each new segment carries the filter of its ids, and a
   * segment of the group written without one gets it here when its rows are loaded.
   */
  private appendSegment(group: string, rows: [string, Row][], shard: (k: string) => ShardData, next: Map<string, ShardData | null>) {
    const index = shard(group);
    const segments = { ...((index.$segments ?? {}) as Record<string, SegmentInfo>) };
    const fanOut = this.specs.get(rows[0]![0])?.segmentFanOut;
    const dataOf = (id: string) => (next.has(id) ? next.get(id) : this.cache.get(id)?.data) ?? undefined;
    const list = Object.values(segments).sort((a, b) => a.seq - b.seq);
    const seq = (list.at(-1)?.seq ?? 0) + 1;
    // The commit's plan loaded what is merged (Tx.plan); a segment that is not loaded after all is
    // left as it is: merging only saves reads, skipping it loses nothing.
    const merged: [string, Row][][] = [];
    for (const seg of segmentsToMerge(list, rows.length, fanOut)) {
      const data = dataOf(seg.id);
      if (!data) break;
      merged.unshift(Object.entries(data).flatMap(([table, trows]) => Object.values(trows).map((row): [string, Row] => [table, row as Row])));
      delete segments[seg.id];
      next.set(seg.id, null);
    }
    const acc: [string, Row][] = [...merged.flat(), ...rows];
    // Segments written before filters: their filter from their loaded rows (the segment itself is not rewritten).
    for (const seg of Object.values(segments)) {
      if (seg.filter) continue;
      const data = dataOf(seg.id);
      if (!data) continue;
      const ids = Object.values(data).flatMap((t) => Object.keys(t));
      // `bytes` is of the segment's text, as for new segments (a cache entry's size is of memory).
      segments[seg.id] = { ...seg, filter: filterOf(ids), bytes: JSON.stringify(data).length };
    }
    // Cut into segments of about SEGMENT_BYTES (in the order the rows came: oldest first).
    const parts: { rows: [string, Row][]; bytes: number }[] = [{ rows: [], bytes: 0 }];
    for (const [table, row] of acc) {
      const size = JSON.stringify(row).length + row.id.length + 8;
      let part = parts.at(-1)!;
      if (!fanOut && part.rows.length && part.bytes + size > SEGMENT_BYTES) parts.push((part = { rows: [], bytes: 0 }));
      part.rows.push([table, row]);
      part.bytes += size;
    }
    parts.forEach((part, i) => {
      const data: ShardData = {};
      for (const [table, row] of part.rows) (data[table] ??= {})[row.id] = row;
      const key = `${group}/${seq + i}`;
      next.set(key, data);
      segments[key] = { id: key, seq: seq + i, rows: part.rows.length, filter: filterOf(part.rows.map(([, r]) => r.id)), bytes: part.bytes };
    });
    index.$segments = segments;
  }

  private removeFromSegments(
    group: string,
    table: string,
    id: string,
    tableIn: (k: string, t: string) => Record<string, any>,
    shard: (k: string) => ShardData,
    next: Map<string, ShardData | null>,
  ) {
    const index = shard(group);
    for (const seg of segmentsOf(index)) {
      const data = next.get(seg.id) ?? this.cache.get(seg.id)?.data;
      if (!data?.[table]?.[id]) continue;
      delete tableIn(seg.id, table)[id];
      const segments = { ...(index.$segments as Record<string, SegmentInfo>) };
      if (seg.rows <= 1) {
        delete segments[seg.id];
        next.set(seg.id, null);
      } else segments[seg.id] = { ...seg, rows: seg.rows - 1 };
      index.$segments = segments;
      return;
    }
  }

  /**
   * Log tables kept row by row (`logTables`): removes the rows of the log holding rows whose
   * `field` is `value` past the newest `keep` or ordered before `after` (ShardBackend.trimLog),
   * apart from any write; answers how many are left and the oldest one's order.
   */
  async trimLog(table: string, field: string, value: string, keep: number, after: string): Promise<{ count: number; oldest: string }> {
    const log = this.specs.get(table)?.locate?.[field]?.(value);
    if (!this.logTables.has(table) || !log || !this.backend.trimLog) throw new DocsError('bug', `${table} is no log kept row by row`);
    let removed: number | undefined;
    try {
      const r = await this.backend.trimLog(log, keep, after);
      removed = r.removed;
      return { count: r.count, oldest: r.oldest };
    } finally {
      // A trim that removed nothing changed nothing: no copy to drop, no new generation.
      if (removed !== 0) this.invalidate([log]);
    }
  }

  /** Can the store serve requests now (`/health`): what the backend says, ok if it says nothing. */
  async health(): Promise<BackendHealth> {
    if (this.closed) return { ok: false, message: 'the store is closed' };
    return (await this.backend.health?.()) ?? { ok: true };
  }

  async close(): Promise<void> {
    this.closed = true;
    while (this.running) await this.running;
    await this.backend.close();
  }

  /**
   * The shards in the cache that have a copy in the backend, most recently used first, as many
   * as take `maxBytes` of memory (Entry.size) at most: what a next process may load again
   * (`prewarm`, server/prewarm.ts). The resident shards are left out (open loads them).
   */
  hotShards(maxBytes: number): string[] {
    const hot = [...this.cache].filter(([k, e]) => !e.stale && e.version > 0 && !RESIDENT.has(k)).sort((a, b) => b[1].used - a[1].used);
    const keys: string[] = [];
    let bytes = 0;
    for (const [k, e] of hot) {
      if (bytes + e.size > maxBytes) break;
      bytes += e.size;
      keys.push(k);
    }
    return keys;
  }

  /**
   * Loads `keys` in order, a batch at a time, while the cache holds less than `maxBytes` more
   * than when it started (and stays within its own bound) and `deadline()` has not passed: a
   * bounded prewarm of the shards a previous process used (server/prewarm.ts). Loaded as a read
   * loads them (checked, measured, counted in the cache); nothing pinned. A shard that fails to
   * load ends it (the read that needs it will name the damage). Answers the shards loaded.
   */
  async prewarm(keys: readonly string[], maxBytes: number, deadline: () => boolean, batch = 8): Promise<number> {
    const cap = Math.min(this.bytes + maxBytes, this.limit * 0.8);
    let loaded = 0;
    for (let i = 0; i < keys.length && this.bytes < cap && !this.closed && !deadline(); i += batch) {
      const want = keys.slice(i, i + batch).filter((k) => storable(k) && !this.cache.has(k));
      if (!want.length) continue;
      try {
        await this.load(want);
      } catch {
        break;
      }
      loaded += want.length;
    }
    // The record's first shard the most recently used, as it was in the process that wrote it.
    for (let i = keys.length - 1; i >= 0; i--) {
      const e = this.cache.get(keys[i]!);
      if (e && e.pins === 0) e.used = ++this.tick;
    }
    if (this.bytes > this.limit) this.shrink();
    return loaded;
  }

  /** Loaded shards and their size (tests and `--stats`). */
  stats() {
    return { shards: this.cache.size, bytes: this.bytes, limit: this.limit };
  }
}

interface Job {
  fn: (tx: NamedWriteTx) => unknown;
  resolve: (v: any) => void;
  reject: (e: unknown) => void;
}

/**
 * Reads through a stack of uncommitted change layers (newest last) onto the committed rows of
 * the loaded shards. Every lookup first makes sure the shards that may hold its answer are
 * loaded; when one is not, it is noted as a miss and the lookup answers from what is loaded
 * (the run is then discarded).
 */
class View implements NamedReadTx {
  constructor(
    protected readonly store: ShardStore,
    protected readonly layers: Changes[],
    protected readonly op: Op,
  ) {}

  protected spec(table: string): TableSpec {
    const spec = this.store.specs.get(table);
    if (!spec) throw new DocsError('bug', `unknown table ${table}`);
    return spec;
  }

  settled(): boolean {
    return !this.op.misses?.size;
  }

  wholeGroup(table: string, id: string): void {
    const spec = this.spec(table);
    if (spec.immutable && spec.locateId) this.needKey(spec, spec.locateId(id));
  }

  groupRows(table: string, id: string): number | undefined {
    const spec = this.spec(table);
    if (!spec.immutable || !spec.locateId) return undefined;
    const index = this.need(spec.locateId(id));
    if (!index) return undefined;
    let rows = 0;
    for (const seg of segmentsOf(index)) rows += seg.rows;
    return rows;
  }

  /** The shard `key` is loaded (else noted as a miss). */
  protected need(key: string): ShardData | undefined {
    const e = this.store.use(key, this.op);
    if (!e) (this.op.misses ??= new Set()).add(key);
    return e?.data;
  }

  /** The shard (or, for immutable tables, every segment of the group) `key` is loaded. */
  protected needKey(spec: TableSpec, key: string): boolean {
    if (!spec.immutable || this.op.groups?.has(key)) return spec.immutable ? true : this.need(key) !== undefined;
    const index = this.need(key);
    if (!index) return false;
    let ok = true;
    for (const seg of segmentsOf(index)) if (!this.need(seg.id)) ok = false;
    if (ok) (this.op.groups ??= new Set()).add(key);
    return ok;
  }

  /** Shards that may hold row `id` (undefined while the directory that says is not loaded). */
  private where(spec: TableSpec, id: string): string[] | undefined {
    if (spec.locateId) return [spec.locateId(id)];
    const dir = this.need(dirKey(spec.name, 'id', id));
    if (!dir) return undefined;
    const key = dir[DIR]?.[id]?.[id] as string | undefined;
    return key ? [key] : [];
  }

  /**
   * Row `id` of an immutable table whose group is `group`: only the segments whose filter may
   * hold the id are loaded (every segment without a filter is). Rows are unique in a group, so
   * the row is in one of those or nowhere.
   */
  private segmentRow(spec: TableSpec, group: string, id: string): Row | undefined {
    const rows = this.store.rows.table(spec.name);
    if (this.op.groups?.has(group)) return rows.get(id);
    const index = this.need(group);
    if (!index) return undefined;
    const segments = Object.values((index[SEGMENTS] ?? {}) as Record<string, SegmentInfo>);
    // All of it in memory (a warm server): the group is used whole, as before filters, and the
    // next lookups of this operation in it test no filter.
    if (segments.every((seg) => this.store.loaded(seg.id))) return this.needKey(spec, group) ? rows.get(id) : undefined;
    const h = idHash(id);
    const wanted = segments.filter((seg) => !usableFilter(seg.filter) || mayHold(seg.filter, h));
    // Its segments in memory: the row, whatever the runs before.
    if (wanted.every((seg) => this.store.loaded(seg.id))) {
      for (const seg of wanted) this.need(seg.id);
      return rows.get(id);
    }
    // A walk from row to row loads the rest of the group after runs that missed in it: two, or one
    // for a group read whole (a tree walked from its root: reading one node, a published page's
    // own, loads one segment; a walk takes one run more than it did).
    const runs = this.op.partialRuns?.get(group) ?? 0;
    if (runs >= (spec.readWhole ? 1 : (spec.partialRuns ?? PARTIAL_RUNS))) return this.needKey(spec, group) ? rows.get(id) : undefined;
    let ok = true;
    for (const seg of wanted) if (!this.need(seg.id)) ok = false;
    if (!ok) (this.op.partial ??= new Set()).add(group);
    return ok ? rows.get(id) : undefined;
  }

  protected committed(table: string, id: string): Row | undefined {
    const spec = this.spec(table);
    if (spec.immutable && spec.locateId) return this.segmentRow(spec, spec.locateId(id), id);
    const keys = this.where(spec, id);
    if (!keys) return undefined;
    let ok = true;
    for (const k of keys) if (!this.needKey(spec, k)) ok = false;
    return ok ? this.store.rows.table(table).get(id) : undefined;
  }

  private pending(table: string, id: string): Row | null | undefined {
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const r = this.layers[i]!.get(table)?.get(id);
      if (r !== undefined) return r;
    }
    return undefined;
  }

  get<T extends Row>(table: string, id: string): T | undefined {
    const p = this.pending(table, id);
    if (p !== undefined) return (p ?? undefined) as T | undefined;
    return this.committed(table, id) as T | undefined;
  }

  private merged(table: string, base: Iterable<Row>, keep: (r: Row) => boolean): Row[] {
    if (this.layers.every((l) => !l.get(table)?.size)) return [...base];
    const overridden = new Map<string, Row | null>();
    for (const layer of this.layers) for (const [id, r] of layer.get(table) ?? []) overridden.set(id, r);
    const out: Row[] = [];
    for (const r of base) if (!overridden.has(r.id)) out.push(r);
    for (const r of overridden.values()) if (r && keep(r)) out.push(r);
    return out;
  }

  find<T extends Row>(table: string, field: string, value: string): T[] {
    const spec = this.spec(table);
    const locate = spec.locate?.[field];
    const keys = new Set<string>();
    if (locate) keys.add(locate(value));
    else {
      const dir = this.need(dirKey(table, field, value));
      for (const key of Object.values((dir?.[DIR]?.[value] ?? {}) as Record<string, string>)) keys.add(key);
    }
    for (const key of keys) this.needKey(spec, key);
    const rows = this.store.rows.table(table);
    const base: Row[] = [];
    // Only rows of the shards consulted (and so pinned, and checked at commit): the index also
    // holds rows of other loaded shards, e.g. an old copy of a row another process moved.
    for (const id of this.store.rows.ids(table, field, value)) {
      const row = rows.get(id)!;
      if (keys.has(spec.shard(row))) base.push(row);
    }
    return this.merged(table, base, (r) => valuesOf(r, field).includes(value)) as T[];
  }

  all<T extends Row>(table: string): T[] {
    const spec = this.spec(table);
    if (spec.home) {
      this.needKey(spec, spec.home);
      return this.merged(table, this.store.rows.table(table).values(), () => true) as T[];
    }
    if (!directoryFields(spec).includes('id')) throw new DocsError('bug', `table ${table} cannot be listed whole (no id directory)`);
    const keys = new Set<string>();
    for (const dk of allDirKeys(table)) {
      const dir = this.need(dk);
      for (const ids of Object.values((dir?.[DIR] ?? {}) as Record<string, Record<string, string>>)) {
        for (const key of Object.values(ids)) keys.add(key);
      }
    }
    for (const key of keys) this.needKey(spec, key);
    const base = [...this.store.rows.table(table).values()].filter((r) => keys.has(spec.shard(r))); // as in find()
    return this.merged(table, base, () => true) as T[];
  }
}

/** How a rehearsed write (ShardStore.rehearse) leaves the queue: refused, with what it did. */
class Rehearsed {
  constructor(
    readonly result: unknown,
    readonly changes: RowChanges,
  ) {}
}

class Tx extends View implements NamedWriteTx {
  readonly changes: Changes = new Map();
  constructor(store: ShardStore, batch: Changes, op: Op) {
    super(store, [batch], op);
    this.layers.push(this.changes);
  }

  private layer(table: string) {
    let m = this.changes.get(table);
    if (!m) this.changes.set(table, (m = new Map()));
    return m;
  }

  put<T extends Row>(table: string, row: T): T {
    const _spec = this.spec(table);
    if (typeof row.id !== 'string' || !row.id) throw new DocsError('bug', `row without id in ${table}`);
    // What the commit rewrites (the row's shards, directories) is loaded by the commit, not here:
    // a function that puts a row under a new random id would reach a new shard on every run.
    // Content-addressed rows already stored are skipped there too (the same id is the same content).
    const old = _spec.summary ? this.get(table, row.id) : undefined;
    this.layer(table).set(row.id, deepFreeze(row));
    if (_spec.summary) maintain(this, _spec, row.id, old, row);
    return row;
  }

  delete(table: string, id: string): boolean {
    const spec = this.spec(table);
    const old = this.get(table, id);
    if (old !== undefined) {
      this.layer(table).set(id, null);
      if (spec.summary) maintain(this, spec, id, old, null);
    }
    return old !== undefined;
  }

  /** Loads (as misses) what committing `batch` rewrites: the old and new shards of each row and their directories. */
  plan(batch: Changes) {
    const added = new Map<string, { count: number; fanOut?: number }>(); // group -> new immutable rows
    for (const [table, rows] of batch) {
      const spec = this.spec(table);
      // A log's rows are appended and removed as they are: nothing of it is read to write them.
      if (this.store.logTables.has(table)) continue;
      for (const [id, row] of rows) {
        // A new row of fresh ids is in no segment: only its group's index and merges are read (below).
        const old = spec.freshIds && row ? undefined : this.committed(table, id);
        if (spec.immutable) {
          // committed() loaded the segments that may hold the row (a delete rewrites that one);
          // new rows need the group's segments the commit merges, no others.
          if (row && !old) {
            const g = added.get(spec.shard(row)) ?? { count: 0, fanOut: spec.segmentFanOut };
            g.count++;
            added.set(spec.shard(row), g);
          }
          continue;
        }
        for (const r of [old, row]) {
          if (!r) continue;
          this.needKey(spec, spec.shard(r));
          for (const f of directoryFields(spec)) for (const v of dirValues(r, f)) this.need(dirKey(table, f, v));
        }
      }
    }
    for (const [group, { count, fanOut }] of added) {
      const index = this.need(group);
      if (index) for (const seg of segmentsToMerge(segmentsOf(index), count, fanOut)) this.need(seg.id);
    }
  }
}
