// Where shards are kept: the lowdb files of a data directory (file-backend.ts) or PostgreSQL
// (pg-backend.ts). The store engine (shard-store.ts) keeps the rows of the shards it has loaded
// in memory, loads more on demand and evicts the least recently used; a backend only reads and
// writes whole shards, atomically.

/** A shard: `{ [table]: { [id]: row } }`. */
export type ShardData = Record<string, Record<string, any>>;

/** A shard as read: its data (`{}` when absent) and its version (0 when absent). */
export interface LoadedShard {
  data: ShardData;
  version: number;
  /** Bytes of its serialized form, for the cache's memory bound. */
  size: number;
}

/** A commit lost a race with another process: these shards changed since they were read. */
export class ShardConflict extends Error {
  constructor(readonly keys: string[]) {
    super(`shards changed by another writer: ${keys.slice(0, 5).join(', ')}`);
  }
}

/**
 * Shard keys beginning with this name a log (TableSpec.log): on a backend with `logs`, a table of
 * rows appended one by one rather than a document rewritten whole. Loading such a key gives
 * every row of the log (version 0); committing one replaces the log (`docs migrate`).
 */
export const LOG_PREFIX = 'log/';

/**
 * The order of a log's rows, oldest first: their `occurredAt` (an ISO time), then their id. A log
 * is trimmed by it (ShardBackend.trimLog).
 */
export function logOrder(row: object): string {
  const at = (row as { occurredAt?: unknown }).occurredAt;
  return typeof at === 'string' ? at : '';
}

/** What a commit adds to and removes from logs (backends with `logs`), beside its shards. */
export interface LogChanges {
  /** New rows (their ids never seen in the log: an id appended again is read as its first row). */
  append: { log: string; table: string; row: { id: string } }[];
  /** Rows removed (an absent one: nothing to do). */
  remove: { log: string; id: string }[];
}

/** The logs `logs` appends to or removes from. */
export function logKeysOf(logs: LogChanges): string[] {
  return [...new Set([...logs.append.map((a) => a.log), ...logs.remove.map((r) => r.log)])];
}

export interface ShardBackend {
  /**
   * Keeps the rows of log tables (TableSpec.log) as rows of their own: a commit appends and
   * removes them (`LogChanges`) in the same transaction as its shards, without rewriting the
   * log. Without it, a log is an ordinary shard.
   */
  readonly logs?: boolean;
  /** Recovers from an interrupted commit, creates what a new store needs. */
  open(): Promise<void>;
  /** Reads shards by key. A shard that does not exist comes back as `{data: {}, version: 0}`. */
  load(keys: string[]): Promise<Map<string, LoadedShard>>;
  /** Every shard key (migrations and checks only: never on a request's path). */
  keys(): Promise<string[]>;
  /**
   * Applies every change at once (`null` deletes the shard) or none. `expected` gives, for each
   * shard the transaction read or writes, the version it saw: a backend shared between processes
   * rejects with ShardConflict when one differs. Resolves with the new versions once durable.
   * `logs` (backends with `logs` only): rows appended and removed in the same commit.
   */
  commit(changes: Map<string, ShardData | null>, expected: Map<string, number>, logs?: LogChanges): Promise<Map<string, number>>;
  /**
   * Backends with `logs`: removes the rows of log `log` past the newest `keep` (by `logOrder`)
   * or ordered before `after`, in a transaction of its own (other processes are told the log
   * changed); answers how many rows are left and the oldest one's order ('' for none), and, when
   * the backend says, how many it removed (0: the log is as it was, a copy of it still current).
   */
  trimLog?(log: string, keep: number, after: string): Promise<{ count: number; oldest: string; removed?: number }>;
  /**
   * Calls `fn` with the keys of shards other processes commit (shared backends only), and, when
   * the notice could carry them, those shards as committed (the others of `keys`: changed, to
   * be read again).
   */
  subscribe?(fn: (keys: string[], shards?: Map<string, LoadedShard>) => void): void;
  /** Resolves once commits of other processes are being heard (after `subscribe`). */
  whenListening?(): Promise<void>;
  /**
   * Claims background job `job` for this process until `release()` (shared backends only):
   * null when another process holds it. A claim ends by itself when its process dies.
   */
  claim?(job: string): Promise<JobClaim | null>;
  /** Can the store serve requests now (`/health`)? Absent: whenever this process runs. */
  health?(): Promise<BackendHealth>;
  close(): Promise<void>;
}

/** A backend's answer to `health()`: a message naming the store when it cannot serve. */
export type BackendHealth = { ok: true } | { ok: false; message: string };

export interface JobClaim {
  /** Ends the claim (the job is done, or given up): another process may claim it again. */
  release(): Promise<void>;
}
