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

export interface ShardBackend {
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
   */
  commit(changes: Map<string, ShardData | null>, expected: Map<string, number>): Promise<Map<string, number>>;
  /** Calls `fn` with the keys of shards other processes commit (shared backends only). */
  subscribe?(fn: (keys: string[]) => void): void;
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
