// Shards in PostgreSQL: one row per shard in `<schema>.shards`, shared by every process that
// points at the same database and schema. Commits check the versions the caller read (optimistic
// concurrency) under per-shard locks; other processes learn of commits through LISTEN/NOTIFY.
//
// Layout (schema_version 2):
//   <schema>.schema_version (one row: the layout's version, for later migrations)
//   <schema>.shards (key text primary key, data text, version bigint)
//   <schema>.jobs (key text primary key): background jobs being run, row-locked by their runner (2+)
//   <schema>.logs (log, id, tbl, data, ord, seq): the rows of log tables (TableSpec.log: the audit
//     log), one row each, appended and removed by commits beside their shards (3+). A log's key
//     (`log/...`, backend.ts LOG_PREFIX) loads as a shard of all its rows, in the order appended
//     (seq); `ord` (backend.ts logOrder) is what trimLog keeps the newest of. Indexed by
//     (log, ord, id), in the order trims read (4+; layout 3 had the key (log, id) and no index
//     on ord: see migrate).
//
// data is the shard's JSON as TEXT, not JSONB. Measured on this machine (PostgreSQL 15, local
// TCP, fsync on; a shard = one BEGIN/upsert/COMMIT, a load = one SELECT + JSON.parse + byte
// length; median of 60 (1.2 MB) / 1000 (1.2 KB) interleaved runs, two runs each):
//   1.2 MB shard, JSONB / TEXT: commit 1.17-1.18x, load 2.17-2.74x, load+commit 1.37-1.38x
//   1.2 KB shard, JSONB / TEXT: commit 1.06-1.12x, load 1.04-1.08x, load+commit 1.06-1.11x
//   (absolute, TEXT: 1.2 MB commit ~64 ms, load ~10-17 ms; 1.2 KB commit ~0.6-0.8 ms, load ~0.22 ms)
//   both columns lz4-compressed instead of pglz: 1.2 MB load+commit 1.49-2.02x, 1.2 KB 1.06-1.07x
// JSONB pays for parsing into its binary form on write and printing it back on read, and we never
// query inside a shard. TEXT also keeps the object key order (JSONB reorders keys, which would
// change the order rows come back in) and accepts every string JSON.stringify writes (JSONB
// rejects \u0000 and lone surrogates). Where the server has lz4 the column uses it: 1.2 MB
// commits take 0.48x the time of the default pglz (loads 1.07-1.21x, small shards equal).
//
// A deleted shard leaves a tombstone (data NULL, version kept and bumped): versions of a key then
// never repeat, so a process holding version 1 of a shard that was deleted and created again
// (as version 1 again, without tombstones) cannot commit over it unnoticed. To callers a
// tombstone is an absent shard: version 0, not in keys().

import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { watchClosed, watchOpened } from './open-watch.js';
import { DocsError } from '../kernel/errors.js';
import {
  LOG_PREFIX,
  logKeysOf,
  logOrder,
  ShardConflict,
  type BackendHealth,
  type LoadedShard,
  type LogChanges,
  type ShardBackend,
  type ShardData,
} from './backend.js';

export interface PgBackendOptions {
  /** Connections in the pool (commits and loads; the listener has its own). Default 10. */
  poolSize?: number;
  /** The PostgreSQL schema holding the tables (created by open()). Default `docs`. */
  schema?: string;
  /** Time to wait for a connection, in ms. Default 10,000. */
  connectTimeoutMs?: number;
  /** The listener's first and longest wait before reconnecting, in ms. Default 100 and 2,000. */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** How often the listener checks its connection is alive (a dead peer may send nothing), in ms. Default 30,000. */
  heartbeatMs?: number;
}

/** `postgres://...` or `postgresql://...`: a store URL for PgBackend rather than a data directory. */
export function isPostgresUrl(s: string): boolean {
  return /^postgres(ql)?:\/\//i.test(s.trim());
}

/** The layout this code writes; open() brings older ones up to it, refuses newer ones. */
export const PG_SCHEMA_VERSION = 4;

const isLog = (key: string) => key.startsWith(LOG_PREFIX);

/** NOTIFY payloads must be under 8000 bytes; past this, '*' ("drop everything") instead of the keys. */
const MAX_PAYLOAD_BYTES = 7900;

interface Payload {
  /** The sending backend's id: a backend skips its own notifications. */
  from: string;
  /** The changed shards, or '*' when too many to list. */
  keys?: string[] | '*';
  /** A barrier of the sender's (see `heardAll`): no shards changed. */
  sync?: string;
  /** Shards of `keys` as committed, when small enough to send (their data, version, text's bytes). */
  d?: Record<string, ShardData>;
  v?: Record<string, number>;
  s?: Record<string, number>;
}

// When PostgreSQL goes away (restarted, stopped, the network cut) no process may end and no
// request may get a 500: every pg Pool and Client has an 'error' listener (an 'error' event
// without one ends the process; pg emits it on a checked-out client too, when the connection
// dies under a transaction), and the errors of an unreachable store become DocsError
// `unavailable` (503) naming the store (`unavailable` below). Nothing waits for PostgreSQL to
// return: each request tries again on a new connection, the listener reconnects with backoff
// (sooner if a query gets through), so service resumes by itself.

/** SQLSTATE classes of a store that cannot serve now (connection, resources, shutdown, system). */
const UNAVAILABLE_CLASSES = new Set(['08', '53', '57', '58']);
/** Errors of pg itself (not of the server) when a connection cannot be made or was lost. */
const CONNECTION_MESSAGES =
  /Connection terminated|connection error|timeout exceeded when trying to connect|Query read timeout|not queryable|Client was closed/i;

/** Does `err` say the store cannot be reached (as opposed to a bug: bad SQL, bad data)? */
function isUnavailable(err: unknown): boolean {
  if (err instanceof pg.DatabaseError) return UNAVAILABLE_CLASSES.has(String(err.code).slice(0, 2));
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  return (typeof code === 'string' && /^E[A-Z]+$/.test(code)) || CONNECTION_MESSAGES.test(err.message);
}

/** `host:port/database (schema s)`: names the store in messages, without its credentials. */
function storeName(connectionString: string, schema: string): string {
  try {
    const u = new URL(connectionString);
    return `${u.hostname || 'localhost'}:${u.port || 5432}${u.pathname || ''} (schema ${schema})`;
  } catch {
    return `(schema ${schema})`;
  }
}

/** 64-bit advisory lock id (as a decimal string for an int8 parameter) of a name. */
function lockId(name: string): string {
  return createHash('sha1').update(name).digest().readBigInt64BE(0).toString();
}

/** Lock ids of shard keys already seen, per schema (two SHA-1s a key were ~4% of a busy server's CPU). */
const lockIdCache = new Map<string, Map<string, string>>();
const LOCK_IDS_KEPT = 50_000;

/** The advisory lock a commit takes for shard `key` of `schema`: one of 1,024 per schema (commitShards). */
export function shardLockId(schema: string, key: string): string {
  let ids = lockIdCache.get(schema);
  if (!ids) lockIdCache.set(schema, (ids = new Map()));
  let id = ids.get(key);
  if (id === undefined) {
    if (ids.size >= LOCK_IDS_KEPT) ids.clear();
    id = lockId(`docs-shard:${schema}\0${Number(BigInt(lockId(key)) & 1023n)}`);
    ids.set(key, id);
  }
  return id;
}

export class PgBackend implements ShardBackend {
  private readonly pool: pg.Pool;
  /** Connections holding job claims (each an open transaction), apart from commits and loads. */
  private jobPool: pg.Pool | undefined;
  private readonly schema: string;
  /** `"schema".` quoted, to prefix table names in SQL. */
  private readonly q: string;
  private readonly channel: string;
  /** Distinguishes this backend's notifications from other processes'. */
  readonly id = randomUUID();
  /** How this backend's notices begin: every Payload has `from` first. */
  private readonly ownPrefix = `{"from":${JSON.stringify(this.id)},`;
  /** Log tables' rows are rows of `logs` (see the top of this file). */
  readonly logs = true;
  private readonly opts: Required<Omit<PgBackendOptions, 'schema' | 'poolSize'>>;

  private readonly subscribers = new Set<(keys: string[], shards?: Map<string, LoadedShard>) => void>();
  /** Barriers waiting for their own notification (see `heardAll`). */
  private readonly syncs = new Map<string, () => void>();
  private listener: pg.Client | undefined;
  private listening: Promise<void> | undefined;
  private listenAttempts = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** `host:port/database (schema s)`, for messages. */
  readonly name: string;
  /** Why the listener is not connected (its last error), while it is not. */
  private listenerDown: string | undefined;
  /** The health probe in flight, shared by concurrent callers. */
  private probing: Promise<BackendHealth> | undefined;
  /** Connections commitShards' statements are prepared on (`prepare`). */
  private readonly prepared = new WeakSet<pg.PoolClient>();

  constructor(
    private readonly connectionString: string,
    options: PgBackendOptions = {},
  ) {
    this.schema = options.schema ?? 'docs';
    if (!this.schema || Buffer.byteLength(this.schema) > 63) throw new Error(`PostgreSQL schema name must be 1-63 bytes: ${JSON.stringify(this.schema)}`);
    this.q = pg.escapeIdentifier(this.schema) + '.';
    // Channels are per database, not per schema: name it after the schema (at most 63 bytes).
    const channel = `docs_shards:${this.schema}`;
    this.channel = Buffer.byteLength(channel) <= 63 ? channel : `docs_shards:${createHash('sha1').update(this.schema).digest('hex')}`;
    this.opts = {
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      reconnectMinMs: options.reconnectMinMs ?? 100,
      reconnectMaxMs: options.reconnectMaxMs ?? 2_000,
      heartbeatMs: options.heartbeatMs ?? 30_000,
    };
    this.name = storeName(connectionString, this.schema);
    this.pool = guarded(
      new pg.Pool({
        connectionString,
        max: options.poolSize ?? 10,
        connectionTimeoutMillis: this.opts.connectTimeoutMs,
        keepAlive: true,
        application_name: 'docs',
      }),
    );
  }

  /**
   * Runs a statement of the store's: the errors of an unreachable store become `unavailable`
   * naming it; a success while the listener is waiting to reconnect makes it reconnect now
   * (PostgreSQL is back: the sooner it listens, the sooner other processes' commits are heard).
   */
  private async run<T>(fn: () => Promise<T>, unsure?: () => boolean): Promise<T> {
    let out: T;
    try {
      out = await fn();
    } catch (err) {
      throw this.unavailable(err, unsure?.());
    }
    if (this.reconnectTimer && !this.closed) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = undefined;
      this.listening = this.listen();
    }
    return out;
  }

  /** `err` as DocsError `unavailable` naming the store when it says the store cannot be reached; else `err`. */
  private unavailable(err: unknown, unsure = false): unknown {
    if (err instanceof DocsError || err instanceof ShardConflict || !isUnavailable(err)) return err;
    const e = new DocsError('unavailable', `PostgreSQL store ${this.name} is unavailable: ${(err as Error).message || String(err)}`, { cause: err });
    // The connection died after COMMIT was sent: PostgreSQL may have made it (shard-store.ts says so).
    if (unsure) Object.assign(e, { outcomeUnknown: true });
    return e;
  }

  /**
   * Can the store serve now? Not while the listener is disconnected (commits of other processes
   * would go unheard); otherwise a `SELECT 1` (one at a time, bounded by the connect timeout).
   */
  async health(): Promise<BackendHealth> {
    if (this.closed) return { ok: false, message: `PostgreSQL store ${this.name} is closed` };
    if (this.subscribers.size && !this.listener) {
      return { ok: false, message: `PostgreSQL store ${this.name} is unavailable: ${this.listenerDown ?? 'connecting'}` };
    }
    return (this.probing ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${this.opts.connectTimeoutMs} ms`)), this.opts.connectTimeoutMs);
        });
        await Promise.race([this.run(() => this.pool.query('SELECT 1')), timeout]);
        return { ok: true } as const;
      } catch (err) {
        const message = err instanceof DocsError ? err.message : `PostgreSQL store ${this.name} is unavailable: ${(err as Error).message}`;
        return { ok: false, message } as const;
      } finally {
        clearTimeout(timer);
        this.probing = undefined;
      }
    })());
  }

  async open(): Promise<void> {
    await this.run(() => this.openTables());
    watchOpened(this, `PostgreSQL store ${this.name}`);
  }

  private async openTables(): Promise<void> {
    // Fast path: already at this layout (needs no CREATE privilege on the database).
    const exists = await this.pool.query<{ e: boolean }>('SELECT to_regclass($1) IS NOT NULL AS e', [`${this.q}schema_version`]);
    if (exists.rows[0].e) {
      const found = await this.pool.query<{ version: number }>(`SELECT version FROM ${this.q}schema_version`);
      if (found.rows[0]?.version === PG_SCHEMA_VERSION) return;
    }

    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      // Two processes opening a new store at once: CREATE ... IF NOT EXISTS alone can still fail
      // on the catalog's unique index, so the DDL runs under a lock of this schema.
      await client.query('SELECT pg_advisory_xact_lock($1::int8)', [lockId(`docs-ddl:${this.schema}`)]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(this.schema)}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.q}schema_version (
        one boolean PRIMARY KEY DEFAULT true CHECK (one), version integer NOT NULL)`);
      const r = await client.query<{ version: number }>(`SELECT version FROM ${this.q}schema_version`);
      const from = r.rows[0]?.version ?? 0;
      if (from > PG_SCHEMA_VERSION) {
        throw new Error(
          `the store in PostgreSQL schema ${this.schema} has layout ${from}, newer than this program's (${PG_SCHEMA_VERSION}): upgrade the program`,
        );
      }
      for (let v = from; v < PG_SCHEMA_VERSION; v++) await this.migrate(client, v + 1);
      await client.query(
        `INSERT INTO ${this.q}schema_version (version) VALUES ($1)
        ON CONFLICT (one) DO UPDATE SET version = EXCLUDED.version`,
        [PG_SCHEMA_VERSION],
      );
      await client.query('COMMIT');
    } catch (e) {
      broken = await rollback(client, e);
      throw e;
    } finally {
      client.release(broken);
    }
  }

  /** Brings the layout from version `to - 1` to `to`, inside open()'s transaction. */
  private async migrate(client: pg.PoolClient, to: number): Promise<void> {
    switch (to) {
      case 1:
        // data NULL = a deleted shard's tombstone (see the top of this file).
        await client.query(`CREATE TABLE IF NOT EXISTS ${this.q}shards (
          key text PRIMARY KEY, data text, version bigint NOT NULL)`);
        // lz4 compresses big shards in half pglz's time (PostgreSQL 14+ built with lz4).
        await client.query('SAVEPOINT lz4');
        try {
          await client.query(`ALTER TABLE ${this.q}shards ALTER COLUMN data SET COMPRESSION lz4`);
          await client.query('RELEASE SAVEPOINT lz4');
        } catch {
          await client.query('ROLLBACK TO SAVEPOINT lz4');
        }
        return;
      case 2:
        await client.query(`CREATE TABLE IF NOT EXISTS ${this.q}jobs (key text PRIMARY KEY)`);
        return;
      case 3:
        // seq: the order rows were appended, the order a log loads in (a copy reads back the same text).
        await client.query(`CREATE TABLE IF NOT EXISTS ${this.q}logs (
          log text NOT NULL, id text NOT NULL, tbl text NOT NULL, data text NOT NULL, ord text NOT NULL, seq bigserial NOT NULL,
          PRIMARY KEY (log, id))`);
        return;
      case 4:
        // The rows in the order a trim reads them instead of by id: with the key (log, id) a trim
        // read and sorted every row of the log, or of every log (a sequential scan: 33-48 ms
        // for a log of 6,000 among 26,000 rows, against 2.4 ms by this index), and each append
        // was a speculative insertion (ON CONFLICT) at a random place of the key's index. Appends
        // come in time order, so the index grows at its right edge. Ids are no longer checked
        // unique by PostgreSQL: an appended id is new (an event's uuid), and a load keeps the
        // first row of an id (a probe per append, in the generic plan, read the whole table).
        await client.query(`CREATE INDEX IF NOT EXISTS logs_order ON ${this.q}logs (log, ord, id)`);
        await client.query(`ALTER TABLE ${this.q}logs DROP CONSTRAINT IF EXISTS logs_pkey`);
        return;
      default:
        throw new Error(`no migration to PostgreSQL layout ${to}`);
    }
  }

  async load(keys: string[]): Promise<Map<string, LoadedShard>> {
    const wanted = [...new Set(keys)];
    const out = new Map<string, LoadedShard>();
    if (!wanted.length) return out;
    const shardKeys = wanted.filter((k) => !isLog(k));
    const logKeys = wanted.filter(isLog);
    const [r, l] = await this.run(() =>
      Promise.all([
        shardKeys.length
          ? this.pool.query<{ key: string; data: string; version: string }>(
              `SELECT key, data, version FROM ${this.q}shards WHERE key = ANY($1::text[]) AND data IS NOT NULL`,
              [shardKeys],
            )
          : undefined,
        logKeys.length
          ? this.pool.query<{ log: string; id: string; tbl: string; data: string }>(
              `SELECT log, id, tbl, data FROM ${this.q}logs WHERE log = ANY($1::text[]) ORDER BY seq`,
              [logKeys],
            )
          : undefined,
      ]),
    );
    for (const row of r?.rows ?? []) {
      out.set(row.key, { data: JSON.parse(row.data), version: Number(row.version), size: Buffer.byteLength(row.data) });
    }
    // A log: every row, as one shard of version 0 (a log is never checked by version: its rows are only added and removed).
    for (const row of l?.rows ?? []) {
      let shard = out.get(row.log);
      if (!shard) out.set(row.log, (shard = { data: {}, version: 0, size: 0 }));
      const rows = (shard.data[row.tbl] ??= {});
      if (Object.hasOwn(rows, row.id)) continue; // an id appended again: the first row stays (see migrate, layout 4)
      rows[row.id] = JSON.parse(row.data);
      shard.size += Buffer.byteLength(row.data) + row.id.length + 8;
    }
    for (const k of wanted) if (!out.has(k)) out.set(k, { data: {}, version: 0, size: 0 });
    return out;
  }

  async keys(): Promise<string[]> {
    const r = await this.run(() =>
      this.pool.query<{ key: string }>(`SELECT key FROM ${this.q}shards WHERE data IS NOT NULL UNION SELECT DISTINCT log FROM ${this.q}logs ORDER BY 1`),
    );
    return r.rows.map((row) => row.key);
  }

  // Isolation: READ COMMITTED (the default) is enough. Every commit first takes a transaction
  // advisory lock per shard key (absent shards have no row to lock), always in the same order
  // (sorted lock ids) so two commits cannot deadlock: exclusive for the shards it writes, shared for
  // those it only read (the root, the organization, directories: nearly every write reads them, and
  // exclusive locks there made every commit of every process wait for the one before, one at a
  // time). It row-locks the existing rows it writes (FOR UPDATE, which also stops writers that
  // bypass the advisory locks); rows only read are not row-locked (a row lock writes the row).
  // Only then does it read the current
  // versions, in a later statement than the lock: under READ COMMITTED each statement takes a new
  // snapshot, so that read sees every commit that finished before the locks were granted,
  // including shards another process has just created. Until we commit, no other commit can change
  // or create any of these shards (a writer needs the exclusive lock, which waits for our shared
  // one), so "versions equal `expected`" still holds when ours becomes
  // visible: the caller's reads and writes on these shards are serialized exactly as SERIALIZABLE
  // would, without its predicate locks and serialization failures. The data the caller read
  // (earlier, through load) is validated by its version, not by a database snapshot, so the
  // transaction needs none of its own.
  //
  // Logs (`logs`): rows appended and removed in the same statement as the shards are written,
  // under no lock of their own (an appended id is new, a removal of an absent row does nothing),
  // and named in the notification so other processes drop a copy they hold. A log key among
  // `changes` (a whole store copied, `docs migrate`) replaces that log's rows.
  commit(changes: Map<string, ShardData | null>, expected: Map<string, number>, logs?: LogChanges): Promise<Map<string, number>> {
    const sent = { commit: false };
    let shards = changes;
    let logChanges = logs;
    let replaced: string[] = [];
    if ([...changes.keys()].some(isLog)) {
      shards = new Map([...changes].filter(([k]) => !isLog(k)));
      replaced = [...changes.keys()].filter(isLog);
      logChanges = { append: [...(logs?.append ?? [])], remove: [...(logs?.remove ?? [])] };
      for (const k of replaced) {
        for (const [table, rows] of Object.entries(changes.get(k) ?? {})) for (const row of Object.values(rows)) logChanges.append.push({ log: k, table, row });
      }
    }
    const checked = [...expected.keys()].some(isLog) ? new Map([...expected].filter(([k]) => !isLog(k))) : expected;
    return this.run(
      () => this.commitShards(shards, checked, sent, logChanges, replaced),
      () => sent.commit,
    );
  }

  private async commitShards(
    changes: Map<string, ShardData | null>,
    expected: Map<string, number>,
    sent: { commit: boolean },
    logs: LogChanges | undefined,
    replaced: string[],
  ): Promise<Map<string, number>> {
    const result = new Map<string, number>();
    const keys = [...new Set([...expected.keys(), ...changes.keys()])];
    const logged = !!(logs?.append.length || logs?.remove.length || replaced.length);
    if (!keys.length && !logged) return result;
    // Serialize outside the transaction: the locks are held for as short a time as possible.
    const texts = new Map<string, string | null>();
    for (const [k, d] of changes) texts.set(k, d === null ? null : JSON.stringify(d));
    // Keys share 1,024 advisory locks (by hash): a commit of thousands of shards (a migration)
    // takes at most 1,024, within PostgreSQL's lock table (max_locks_per_transaction 64 x
    // 100 connections by default); two commits on different keys of one slot merely wait in turn.
    // A slot is locked exclusively when the commit writes a key of it, else shared.
    const slot = (k: string) => shardLockId(this.schema, k);
    const exclusive = new Map<string, boolean>();
    for (const k of keys) {
      const id = slot(k);
      exclusive.set(id, (exclusive.get(id) ?? false) || texts.has(k));
    }
    const lockIds = [...exclusive.keys()]
      .map((id) => ({ id, n: BigInt(id) }))
      .sort((a, b) => (a.n < b.n ? -1 : a.n > b.n ? 1 : 0))
      .map((x) => x.id);
    const lockModes = lockIds.map((id) => (exclusive.get(id) ? 'x' : 's'));

    const wKeys = [...texts.keys()];
    const logKeys = logged ? [...new Set([...replaced, ...logKeysOf(logs!)])] : [];
    // Other processes are told what changed, in one notice per commit: the keys written, and
    // the shards themselves as many as fit in a NOTIFY, smallest first (their texts as sent, versions and sizes
    // filled in by PostgreSQL from the write: the texts are not sent twice). A process holding
    // one takes the new copy from the notice instead of a SELECT (a write of one server made the
    // other's next write of that space wait for a load); the others named are read again when
    // used. '*' when even the keys do not fit (a migration). The statement builds the notice from
    // `fixed` within `budget` bytes, or sends `plain` as it is.
    const fixed = `{"from":${JSON.stringify(this.id)},"keys":${JSON.stringify([...wKeys, ...logKeys])},"d":{`;
    const budget = MAX_PAYLOAD_BYTES - Buffer.byteLength(fixed) - 24;
    let plain: string | null = null;
    if (!(budget > 0 && wKeys.length)) {
      plain = JSON.stringify({ from: this.id, keys: [...wKeys, ...logKeys] } satisfies Payload);
      if (Buffer.byteLength(plain) > MAX_PAYLOAD_BYTES) plain = JSON.stringify({ from: this.id, keys: '*' } satisfies Payload);
    }
    const expKeys = [...expected.keys()];
    const readKeys = keys.filter((k) => !texts.has(k));
    // Two round trips per commit (were five: BEGIN, locks, read, write, COMMIT): the first
    // message holds BEGIN, the locks and one statement that reads the versions, checks them and
    // writes only when all match; the second is COMMIT (or ROLLBACK on a conflict). The shard
    // locks are thus held over one round trip, not four. Parameters cannot be bound in a message
    // of several statements, so values go in as literals (`literal`) to the statements prepared
    // on the connection (`prepare`: planned once, not at every commit). The lock statement and
    // the check are separate statements: the check's snapshot is taken after the locks are
    // granted. COMMIT stays apart so a connection lost before it is known to have changed nothing.
    const append = logs?.append ?? [];
    const remove = logs?.remove ?? [];
    const textArray = (xs: (string | null)[]) => array(xs, 'text');
    const args = [
      textArray(wKeys),
      textArray(wKeys.map((k) => texts.get(k)!)),
      textArray(readKeys),
      textArray(expKeys),
      array(
        expKeys.map((k) => String(expected.get(k))),
        'int8',
      ),
      // Rows of logs (never written when the check fails: the batch is refused).
      textArray(remove.map((r) => r.log)),
      textArray(remove.map((r) => r.id)),
      textArray(append.map((a) => a.log)),
      textArray(append.map((a) => a.row.id)),
      textArray(append.map((a) => a.table)),
      textArray(append.map((a) => JSON.stringify(a.row))),
      textArray(append.map((a) => logOrder(a.row))),
      literal(fixed),
      String(Math.max(0, budget)),
      literal(plain),
      String(logged),
    ];
    // A log replaced whole (`docs migrate`): emptied first, in a statement of its own (one
    // statement may not delete and insert the same row).
    const emptyLogs = replaced.length ? `DELETE FROM ${this.q}logs WHERE log = ANY(${array(replaced, 'text')});\n` : '';
    const sql = `BEGIN;
      EXECUTE docs_locks(${array(lockIds, 'int8')}, ${array(lockModes, 'text')});
      ${emptyLogs}EXECUTE docs_commit(${args.join(', ')})`;

    const client = await this.pool.connect();
    try {
      await this.prepare(client);
    } catch (e) {
      // PREPARE is not undone with the failed message: a connection holding the first statement
      // but not the second could never prepare them again. It goes, not back to the pool.
      client.release(e as Error);
      throw e;
    }
    let broken: Error | undefined;
    try {
      const results = (await client.query(sql)) as unknown as pg.QueryResult[];
      const row = results.at(-1)!.rows[0] as { bad: string[]; written: [string, string | number][] };
      if (row.bad.length) {
        await client.query('ROLLBACK');
        throw new ShardConflict(row.bad);
      }
      for (const [k, text] of texts) if (text === null) result.set(k, 0);
      for (const [k, v] of row.written) if (texts.get(k) !== null) result.set(k, Number(v));
      sent.commit = true;
      await client.query('COMMIT');
      return result;
    } catch (e) {
      if (!(e instanceof ShardConflict)) broken = await rollback(client, e);
      throw e;
    } finally {
      client.release(broken);
    }
  }

  /**
   * Prepares commitShards' statements on `client` (once per connection, in a round trip of its
   * own): PostgreSQL then plans them once, not at every commit, where planning the check and
   * write was ~0.3 ms of its CPU a commit (EXPLAIN's planning time) of ~0.9 in all.
   */
  private async prepare(client: pg.PoolClient): Promise<void> {
    if (this.prepared.has(client)) return;
    const q = this.q;
    await client.query(`PREPARE docs_locks (int8[], text[]) AS
      SELECT count(CASE WHEN m = 'x' THEN pg_advisory_xact_lock(id) ELSE pg_advisory_xact_lock_shared(id) END)
        FROM unnest($1, $2) AS l(id, m);
      PREPARE docs_commit (text[], text[], text[], text[], int8[], text[], text[], text[], text[], text[], text[], text[], text, int4, text, boolean) AS
      WITH curw AS MATERIALIZED (
        SELECT key, version, data IS NOT NULL AS live FROM ${q}shards WHERE key = ANY($1) FOR UPDATE),
      cur AS MATERIALIZED (
        SELECT key, version, live FROM curw
        UNION ALL SELECT key, version, data IS NOT NULL FROM ${q}shards WHERE key = ANY($3)),
      bad AS MATERIALIZED (
        SELECT e.key FROM unnest($4, $5) AS e(key, v)
        LEFT JOIN cur c ON c.key = e.key
        WHERE CASE WHEN c.live THEN c.version ELSE 0 END <> e.v),
      todo AS MATERIALIZED (
        SELECT w.key, w.data, coalesce(c.version, 0) + 1 AS version
        FROM unnest($1, $2) AS w(key, data)
        LEFT JOIN cur c ON c.key = w.key
        -- deleting an absent shard: nothing to do; tombstones keep the count (a re-created shard's version is new too)
        WHERE NOT EXISTS (SELECT 1 FROM bad) AND (w.data IS NOT NULL OR coalesce(c.live, false))),
      w AS (
        INSERT INTO ${q}shards AS s (key, data, version) SELECT key, data, version FROM todo
        ON CONFLICT (key) DO UPDATE SET data = EXCLUDED.data, version = EXCLUDED.version
        RETURNING s.key, s.version),
      lr AS (
        DELETE FROM ${q}logs l USING unnest($6, $7) AS r(log, id)
        WHERE l.log = r.log AND l.id = r.id AND NOT EXISTS (SELECT 1 FROM bad) RETURNING 1),
      la AS (
        INSERT INTO ${q}logs (log, id, tbl, data, ord)
        SELECT log, id, tbl, data, ord FROM unnest($8, $9, $10, $11, $12) WITH ORDINALITY AS a(log, id, tbl, data, ord, n)
        WHERE NOT EXISTS (SELECT 1 FROM bad) ORDER BY n RETURNING 1)
      SELECT (SELECT coalesce(json_agg(key), '[]') FROM bad) AS bad,
        (SELECT coalesce(json_agg(json_build_array(key, version)), '[]') FROM w) AS written,
        -- the notification is sent by PostgreSQL on COMMIT only
        CASE WHEN EXISTS (SELECT 1 FROM todo) OR ($16 AND NOT EXISTS (SELECT 1 FROM bad)) THEN pg_notify(${literal(this.channel)}, coalesce($15,
          (SELECT $13 || coalesce(string_agg(j || ':' || data, ','), '') || '},"v":{' || coalesce(string_agg(j || ':' || version, ','), '')
              || '},"s":{' || coalesce(string_agg(j || ':' || octet_length(data), ','), '') || '}}'
            FROM (SELECT j, data, version, sum(octet_length(data) + 3 * octet_length(j) + 40) OVER (ORDER BY octet_length(data), j ROWS UNBOUNDED PRECEDING) AS run
              FROM (SELECT to_json(w.key)::text AS j, t.data, w.version FROM w JOIN todo t ON t.key = w.key WHERE t.data IS NOT NULL) x) y
            WHERE run <= $14))) END AS notified`);
    this.prepared.add(client);
  }

  trimLog(log: string, keep: number, after: string): Promise<{ count: number; oldest: string }> {
    const payload = JSON.stringify({ from: this.id, keys: [log] } satisfies Payload);
    const q = this.q;
    // One statement (its own transaction): rows appended meanwhile by others are not in its
    // snapshot, so they are neither counted nor removed. The last row kept (`last`: the keep-th
    // newest of those at or after `after`, by ord then id) bounds the removal: every row before
    // it goes (those before `after` among them). Its ord is the oldest kept; when there are fewer
    // rows than `keep`, all at or after `after` stay and are counted. Both the search for `last`
    // and the removal are ranges of the index (log, ord, id) (layout 4): 1 + 0.3 ms for a log of
    // 5,500 events, where reading and sorting the log's rows took 8-13 ms (performance.md). The
    // bound is one row comparison, not an OR of conditions, so the removal stays an index range.
    const sql =
      keep > 0
        ? `WITH last AS MATERIALIZED (
          SELECT ord, id FROM ${q}logs WHERE log = $1 AND ord >= $3
          ORDER BY ord DESC, id DESC OFFSET $2::int8 - 1 LIMIT 1),
        gone AS (
          DELETE FROM ${q}logs l WHERE l.log = $1
            AND (l.ord, l.id) < (coalesce((SELECT ord FROM last), $3), coalesce((SELECT id FROM last), '')) RETURNING 1)
        SELECT CASE WHEN EXISTS (SELECT 1 FROM last) THEN $2::int8
            ELSE (SELECT count(*) FROM ${q}logs WHERE log = $1 AND ord >= $3) END AS count,
          CASE WHEN EXISTS (SELECT 1 FROM last) THEN (SELECT ord FROM last)
            ELSE (SELECT min(ord) FROM ${q}logs WHERE log = $1 AND ord >= $3) END AS oldest,
          CASE WHEN EXISTS (SELECT 1 FROM gone) THEN pg_notify($4, $5) END AS notified`
        : `WITH gone AS (DELETE FROM ${q}logs WHERE log = $1 AND $2::int8 <= 0 AND $3::text IS NOT NULL RETURNING 1)
        SELECT 0 AS count, NULL AS oldest, CASE WHEN EXISTS (SELECT 1 FROM gone) THEN pg_notify($4, $5) END AS notified`;
    return this.run(async () => {
      const r = await this.pool.query<{ count: string; oldest: string | null }>(sql, [log, keep, after, this.channel, payload]);
      return { count: Number(r.rows[0]!.count), oldest: r.rows[0]!.oldest ?? '' };
    });
  }

  // Background jobs: each is run by one process at a time. A claim is a row of `jobs` locked
  // with SELECT ... FOR UPDATE SKIP LOCKED in a transaction held open while the job runs: another
  // process's claim skips the locked row at once (no wait, no lease to renew), and a process that
  // dies loses its connection, so PostgreSQL ends the transaction and the job is free again.
  // The row is inserted first in its own statement: an INSERT of a key another open transaction
  // holds would wait for it. Release deletes the row (the job's own state says it is done).
  claim(job: string): Promise<{ release(): Promise<void> } | null> {
    return this.run(() => this.claimJob(job));
  }

  private async claimJob(job: string): Promise<{ release(): Promise<void> } | null> {
    await this.pool.query(`INSERT INTO ${this.q}jobs (key) VALUES ($1) ON CONFLICT DO NOTHING`, [job]);
    this.jobPool ??= this.makeJobPool();
    const client = await this.jobPool.connect();
    // The connection may die while the job runs (server restart, terminated): a checked-out
    // client's 'error' with no listener would end the process. The claim is then simply lost.
    const lost = () => {};
    client.on('error', lost);
    try {
      await client.query('BEGIN');
      const got = await client.query(`SELECT key FROM ${this.q}jobs WHERE key = $1 FOR UPDATE SKIP LOCKED`, [job]);
      if (got.rowCount === 0) {
        await client.query('ROLLBACK');
        client.off('error', lost);
        client.release();
        return null;
      }
    } catch (e) {
      client.off('error', lost);
      client.release((await rollback(client, e)) ?? (e instanceof Error ? e : new Error(String(e))));
      throw e;
    }
    // The process that ran the job before may have committed its outcome just before letting
    // go: this process must have heard of that commit before the job reads its state, or it
    // would run a finished job again from a stale cache.
    let heard: boolean;
    try {
      heard = await this.heardAll();
    } catch (e) {
      // PostgreSQL went away meanwhile: let go of the connection (and its lock) before failing.
      client.off('error', lost);
      client.release((await rollback(client, e)) ?? (e instanceof Error ? e : new Error(String(e))));
      throw e;
    }
    if (!heard) {
      await client.query('ROLLBACK').catch(() => {});
      client.off('error', lost);
      client.release();
      return null;
    }
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        try {
          await client.query(`DELETE FROM ${this.q}jobs WHERE key = $1`, [job]);
          await client.query('COMMIT');
          client.off('error', lost);
          client.release();
        } catch (e) {
          // The connection is gone (and with it the lock): the row may stay, free to claim.
          client.off('error', lost);
          client.release(e instanceof Error ? e : new Error(String(e)));
        }
      },
    };
  }

  /**
   * Resolves true once every commit other processes finished before the call has been heard
   * (subscribers told): PostgreSQL delivers notifications to a listener in commit order, so when
   * a notification sent now comes back, every earlier one has arrived. False if not listening
   * (a reconnect tells subscribers to drop everything anyway) or it takes over 5 s.
   */
  private async heardAll(timeoutMs = 5_000): Promise<boolean> {
    if (!this.listener || !this.subscribers.size) return !this.subscribers.size;
    const sync = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<boolean>((resolve) => {
      this.syncs.set(sync, () => resolve(true));
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      await this.pool.query('SELECT pg_notify($1, $2)', [this.channel, JSON.stringify({ from: this.id, sync } satisfies Payload)]);
      return await heard;
    } finally {
      clearTimeout(timer);
      this.syncs.delete(sync);
    }
  }

  private makeJobPool(): pg.Pool {
    // Workers run at most a few jobs each at once (src/*/processor.ts, delivery.ts, runner.ts).
    return guarded(
      new pg.Pool({
        connectionString: this.connectionString,
        max: 12,
        connectionTimeoutMillis: this.opts.connectTimeoutMs,
        keepAlive: true,
        application_name: `docs-jobs-${this.id}`,
      }),
    );
  }

  subscribe(fn: (keys: string[], shards?: Map<string, LoadedShard>) => void): void {
    this.subscribers.add(fn);
    if (!this.listener && !this.reconnectTimer && !this.listening && !this.closed) this.listening = this.listen();
  }

  /** Resolves once the listener is connected and listening (tests; after subscribe()). */
  async whenListening(timeoutMs = 10_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!this.listener || this.listening) {
      if (this.closed) throw new Error('backend closed');
      if (Date.now() > until) throw new Error('not listening');
      await (this.listening ?? new Promise((r) => setTimeout(r, 20)));
    }
  }

  /** Connects the listening client; on failure or when it drops later, tries again with backoff. */
  private async listen(): Promise<void> {
    const attempt = this.listenAttempts++;
    const client = new pg.Client({
      connectionString: this.connectionString,
      connectionTimeoutMillis: this.opts.connectTimeoutMs,
      // A heartbeat on a half-open connection would otherwise wait forever.
      query_timeout: this.opts.connectTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      application_name: `docs-listener-${this.id}`,
    });
    let lost = false;
    const onLost = (err?: unknown) => {
      if (lost) return;
      lost = true;
      this.listenerDown = err instanceof Error && err.message ? err.message : 'the connection was closed';
      const wasListening = this.listener === client;
      if (wasListening) this.listener = undefined;
      clearInterval(this.heartbeatTimer);
      client.end().catch(() => {});
      this.scheduleReconnect();
      // Commits of other processes go unheard from now on: what is cached may go stale, so
      // subscribers drop everything now (and again once listening, for what came meanwhile).
      if (wasListening) this.emit(['*']);
    };
    client.on('error', onLost);
    client.on('end', onLost);
    client.on('notification', (n) => {
      if (n.channel !== this.channel || !n.payload) return;
      // This process's own notices (one a commit: PostgreSQL sends them to every listener) are
      // skipped unparsed, all but its barriers' (`heardAll`).
      if (n.payload.startsWith(this.ownPrefix) && !n.payload.includes('"sync":')) return;
      let p: Payload;
      try {
        p = JSON.parse(n.payload);
      } catch {
        return;
      }
      if (p.from === this.id) {
        if (p.sync) this.syncs.get(p.sync)?.();
        return;
      }
      if (p.keys === '*') this.emit(['*']);
      else if (p.keys) {
        let shards: Map<string, LoadedShard> | undefined;
        if (p.d && p.v) {
          shards = new Map();
          for (const [k, data] of Object.entries(p.d)) {
            const version = p.v[k];
            if (typeof version === 'number') shards.set(k, { data, version, size: p.s?.[k] ?? 0 });
          }
        }
        this.emit(p.keys, shards);
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(this.channel)}`);
    } catch (err) {
      this.listening = undefined;
      onLost(err);
      return;
    }
    this.listening = undefined;
    if (lost) return;
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.listener = client;
    this.listenerDown = undefined;
    this.listenAttempts = 1;
    this.heartbeatTimer = setInterval(() => {
      client.query('SELECT 1').catch(onLost);
    }, this.opts.heartbeatMs);
    this.heartbeatTimer.unref();
    // Commits made while we were not listening were missed: subscribers must drop everything.
    if (attempt > 0) this.emit(['*']);
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const delay = Math.min(this.opts.reconnectMaxMs, this.opts.reconnectMinMs * 2 ** Math.max(0, this.listenAttempts - 1));
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (!this.closed) this.listening = this.listen();
    }, delay);
    this.reconnectTimer.unref();
  }

  private emit(keys: string[], shards?: Map<string, LoadedShard>): void {
    for (const fn of this.subscribers) {
      try {
        fn(keys, shards);
      } catch {
        // a subscriber's failure is its own: the others still hear of the change
      }
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    watchClosed(this);
    clearTimeout(this.reconnectTimer);
    clearInterval(this.heartbeatTimer);
    this.reconnectTimer = undefined;
    await this.listening?.catch(() => {});
    const listener = this.listener;
    this.listener = undefined;
    await Promise.all([listener?.end().catch(() => {}), this.pool.end(), this.jobPool?.end()]);
  }
}

/**
 * `pool` with every 'error' handled. The pool's own 'error' is an idle connection dying (it is
 * dropped from the pool). A checked-out client has no listener of the pool's: when its
 * connection dies mid-transaction pg rejects the query in flight (or the next one) AND emits
 * 'error', which without a listener would end the process; the rejection is what we act on.
 */
function guarded(pool: pg.Pool): pg.Pool {
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/**
 * `s` as an SQL string literal, NULL for null: the same text as pg's escapeLiteral (quotes doubled;
 * ` E'...'` with backslashes doubled when it holds one), by native replaces rather than its loop
 * of one character at a time, which cost a tenth of a busy server's CPU on shards of 100 KB and more.
 */
function literal(s: string | null): string {
  if (s === null) return 'NULL';
  const quoted = s.includes("'") ? s.replace(/'/g, "''") : s;
  return s.includes('\\') ? ` E'${quoted.replace(/\\/g, '\\\\')}'` : `'${quoted}'`;
}

/** `values` as an SQL array of `type` (values of int8 arrays are decimal strings of ours). */
function array(values: (string | null)[], type: 'text' | 'int8'): string {
  return values.length ? `ARRAY[${values.map(literal).join(',')}]::${type}[]` : `'{}'::${type}[]`;
}

/** Rolls back after an error; returns the error to release the client with when the connection is unusable. */
async function rollback(client: pg.PoolClient, cause: unknown): Promise<Error | undefined> {
  try {
    await client.query('ROLLBACK');
    return undefined;
  } catch {
    return cause instanceof Error ? cause : new Error(String(cause));
  }
}
