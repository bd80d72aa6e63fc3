// The Store port: what services may ask of storage. Services never see files, lowdb or HTTP.
//
// Records live in named tables and are addressed by `id`. Reads see committed data only.
// Both reads and writes take a synchronous function over a transaction and return a promise:
// the store loads the shards a function touches on demand (a function that reaches a shard
// not in memory is run again once it is loaded), so a function must have no effect other than
// through `tx` and its result. Writes are serialized, a function that throws changes nothing,
// and the returned promise resolves only once the change is durable (group commit: writes
// arriving together share one commit).

export interface Row {
  readonly id: string;
}

/** Rows a write puts (the row) or deletes (null), by table and id. */
export type RowChanges = ReadonlyMap<string, ReadonlyMap<string, Row | null>>;

declare const rowType: unique symbol;
declare const indexType: unique symbol;

/**
 * A table as services name it: the table's name (at run time the handle is that string, so the
 * backends and src/store/tables.ts keep plain names), typed with its rows `T` and the fields `K`
 * that `find` may query. A handle is declared by the area that owns the table, in
 * `src/<area>/tables.ts`, so reading another area's rows is an import of that area, which the
 * layering test (test/architecture/layering.test.ts) sees; a plain string is a type error here.
 * `T` is invariant: `put(Spaces, row)` checks `row` against `SpaceRecord` and `get(Spaces, id)`
 * returns one. Several handles may view one table whose rows differ by id (`meta`).
 */
export type Table<T extends Row, K extends string = string> = string & {
  // Type-only: no handle has these properties (so that a plain string is not a handle).
  readonly [rowType]: (row: T) => T;
  readonly [indexType]: K;
};

/** Declares a table handle: `export const Spaces = table<SpaceRecord, 'organization' | 'parent'>('spaces')`. */
export const table = <T extends Row, K extends string = never>(name: string): Table<T, K> => name as Table<T, K>;

export interface ReadTx {
  get<T extends Row>(table: Table<T>, id: string): T | undefined;
  /** Rows whose indexed `field` equals `value` (or contains it, for array fields). Unordered. */
  find<T extends Row, K extends string>(table: Table<T, K>, field: NoInfer<K>, value: string): T[];
  /** Every row of a table. Unordered: services sort by what the contract orders by. */
  all<T extends Row>(table: Table<T>): T[];
  /**
   * False while this run of the function has reached a shard not loaded yet: it runs again once
   * the store loaded it, and a lookup that found nothing is then no answer (so a fallback lookup
   * elsewhere would load what the retry does not need). Absent: every lookup is an answer.
   */
  settled?(): boolean;
  /**
   * Loads, in this run, the whole group holding row `id` of an immutable table: for a reader that
   * will walk every row of it (a page tree), which then runs once more at most instead of once per
   * segment filter tried. Absent (a store without groups): nothing to do.
   */
  wholeGroup?<T extends Row>(table: Table<T>, id: string): void;
  /**
   * How many rows the group holding row `id` of an immutable table has (its index's count),
   * loading the index in this run: undefined while it is not loaded (or no group). For a reader
   * that may read the group whole when it holds about the rows it wants (`wholeGroup`), asked
   * early so that the index is loaded with the run's other shards.
   */
  groupRows?<T extends Row>(table: Table<T>, id: string): number | undefined;
}

export interface WriteTx extends ReadTx {
  /** Inserts or replaces the row with this id. Rows are frozen: put a new object to change one. */
  put<T extends Row>(table: Table<T>, row: NoInfer<T>): T;
  delete(table: Table<any>, id: string): boolean;
}

/**
 * The same transactions with tables named by strings: what the store's own implementation
 * offers (src/store/shard-store.ts), so that the store and its tests, which declare tables of
 * their own, name tables as src/store/tables.ts does. Services see `ReadTx`/`WriteTx` only.
 */
export interface NamedReadTx {
  get<T extends Row>(table: string, id: string): T | undefined;
  find<T extends Row>(table: string, field: string, value: string): T[];
  all<T extends Row>(table: string): T[];
  settled?(): boolean;
  wholeGroup?(table: string, id: string): void;
  groupRows?(table: string, id: string): number | undefined;
}

export interface NamedWriteTx extends NamedReadTx {
  put<T extends Row>(table: string, row: T): T;
  delete(table: string, id: string): boolean;
}

export interface Store {
  read<R>(fn: (tx: ReadTx) => R): Promise<R>;
  write<R>(fn: (tx: WriteTx) => R): Promise<R>;
  /**
   * Runs `fn` as a write runs (queued, in a transaction over the shards it reads, the shards its
   * commit would rewrite loaded) and commits nothing: answers what `fn` returned and the rows it
   * would have committed (table -> id -> row, null for a delete). A fresh server's warm-up runs
   * the write path once this way (server/warm-up.ts). Absent: the store cannot.
   */
  rehearse?<R>(fn: (tx: WriteTx) => R): Promise<{ result: R; changes: RowChanges }>;
  /**
   * Claims a background job for this process when several processes share the store (see
   * src/kernel/leases.ts); absent when the store is this process's alone.
   */
  claim?(job: string): Promise<{ release(): Promise<void> } | null>;
  /**
   * Can the store serve requests now? (`GET /health`.) Not ok, with a message naming the store,
   * while a shared store (PostgreSQL) cannot be reached.
   */
  health?(): Promise<{ ok: true } | { ok: false; message: string }>;
  /**
   * A number that changes whenever what a read sees may have changed: on every commit of this
   * process, and on every change of another process once heard (as the cache hears it). Equal
   * numbers: the same reads give the same rows. Absent: no such promise (callers read).
   */
  generation?(): number;
  /**
   * The log tables (TableSpec.log) this store keeps as rows appended one by one (PostgreSQL):
   * putting a row of one writes that row, not the log. Absent or without it: an ordinary shard.
   */
  readonly logTables?: ReadonlySet<string>;
  /**
   * A store with `logTables`: removes the rows of the log of `table` holding the rows whose
   * `field` is `value`, past the newest `keep` or ordered before `after` (by their `occurredAt`,
   * then id), in a transaction of its own; answers how many are left and the oldest's order.
   */
  trimLog?(table: Table<any>, field: string, value: string, keep: number, after: string): Promise<{ count: number; oldest: string }>;
  /** Waits for queued writes to be durable, then releases files. */
  close(): Promise<void>;
}

/**
 * Where a table's rows are kept and how they are found. The shard key decides which document a
 * row is written to; the locators say which shards may hold a row without reading the others.
 * An id or indexed field without a locator gets a directory the store keeps itself.
 */
export interface TableSpec {
  name: string;
  /** The shard a row is kept in (for `immutable` tables: the group of its segments). */
  shard: (row: any) => string;
  /** Fields `find` may query (array fields match each element). */
  indexes: string[];
  /** The shard of the row with this id, when the id says. */
  locateId?: (id: string) => string;
  /** Per indexed field: the one shard holding every row with this value, when the value says. */
  locate?: Record<string, (value: string) => string>;
  /** Rows are written once and never changed (content-addressed): kept in append-only segments. */
  immutable?: boolean;
  /**
   * For `immutable` tables: how many segments of a size tier are merged into one (default: the
   * binary counter, see ShardStore.appendSegment). More rewrites each row fewer times, for more
   * segments to read: for a log written far more than it is read (src/audit).
   */
  segmentFanOut?: number;
  /**
   * For `immutable` tables whose rows are read together (a page tree: a walk from the root reads
   * every node of the revision): a lookup loads the whole group at once, as before segment
   * filters, instead of the segments whose filter may hold the id, run after run of the walk.
   */
  readWhole?: boolean;
  /**
   * For `immutable` tables: how many runs of an operation may miss in a group before the rest of
   * it is loaded (default 2). More for rows read a few at a time along a path (navigation rows).
   */
  partialRuns?: number;
  /**
   * For `immutable` tables whose ids are made new by the write that puts the row (a random uuid,
   * not a content hash): a put is never of a row already stored, so a commit adding rows looks
   * none of them up. It reads the group's index and the segments it merges, no others (a warm
   * server would otherwise use, and have the commit check, every segment of the group).
   */
  freshIds?: boolean;
  /**
   * A log (the audit log on PostgreSQL): rows only added, and removed, never changed. Its shard
   * keys begin with `log/` (backend.ts LOG_PREFIX) and `locateId` must say where a row is. On a
   * backend with `logs`, a commit appends each new row as a row of its own (ShardBackend.commit's
   * `logs`) instead of rewriting the shard, and reading the shard reads every row of the log; on
   * the others it is an ordinary shard.
   */
  log?: boolean;
  /** Keep an id directory even though `locateId` says where rows are, so `all()` can list them. */
  enumerable?: boolean;
  /** Every row of the table is in this one shard (small installation-wide tables). */
  home?: string;
  /**
   * The files beside the store a row references (relative to the data directory, see
   * src/store/blob-refs.ts): what `docs doctor` checks and its repair never moves.
   */
  blobs?: (row: any) => string[];
  /**
   * Rows holding thousands of small values that only the store's own code reads (a summary's
   * tuples, src/store/summaries.ts): a shard holding only such rows counts its text times this
   * (what they take in V8's heap per character of text, measured on such shards) toward the cache
   * bound, and its rows are frozen with their object fields, not walked value by value: for
   * 10,000 spaces, a value-by-value walk cost a command ~20 ms (cold code) for an estimate.
   */
  heapPerTextChar?: number;
  /**
   * Rows kept in their own shards but listed by a group: each put or delete also updates the
   * group's summary in the same transaction (src/store/summaries.ts).
   */
  summary?: SummarySpec;
}

export interface SummarySpec {
  /** The group a row is summarized in (undefined: none). */
  group: (row: any) => string | undefined;
  /**
   * The fields of a row its summary keeps (besides its id), what lists order, filter and count
   * by: the rest is read from the row's shard for the rows shown. Kept as a tuple in this order.
   */
  fields: string[];
  /** Per key of a row (e.g. its parent), a number whose highest value the head keeps (e.g. its position). */
  last?: { key: (row: any) => string; value: (row: any) => number };
  /** Every group there may be (a rebuild clears the summaries of groups with no row left). */
  groups?: (tx: NamedReadTx) => Iterable<string>;
}
