import { DocsError } from '../kernel/errors.js';
import type { Persistence, ShardData } from './persistence.js';
import type { ReadTx, Row, Store, TableSpec, WriteTx } from './port.js';

type Changes = Map<string, Map<string, Row | null>>; // table -> id -> row (null = deleted)

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

/** Committed state: rows by table, which shard each row is in, and secondary indexes. */
class Tables {
  rows = new Map<string, Map<string, Row>>();
  // The shard a row is in is `spec.shard(row)`, derived, except for rows found in another shard at
  // load (a layout of an older version, e.g. before page bodies moved to buckets): those are
  // remembered here until their next write moves them. Not a map of every row: at 20,000 pages
  // that map was megabytes of entries repeating what the rows already say.
  misplaced = new Map<string, Map<string, string>>();
  indexes = new Map<string, Map<string, Map<string, Set<string>>>>(); // table -> field -> value -> ids
  shards = new Map<string, ShardData>();

  constructor(readonly specs: Map<string, TableSpec>) {
    for (const spec of specs.values()) {
      this.rows.set(spec.name, new Map());
      this.misplaced.set(spec.name, new Map());
      this.indexes.set(spec.name, new Map(spec.indexes.map((f) => [f, new Map()])));
    }
  }

  table(name: string): Map<string, Row> {
    const t = this.rows.get(name);
    if (!t) throw new DocsError('bug', `unknown table ${name}`);
    return t;
  }

  private index(table: string, row: Row, add: boolean) {
    for (const [field, idx] of this.indexes.get(table)!) {
      const v = (row as any)[field];
      for (const value of Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]) {
        let set = idx.get(String(value));
        if (!set) idx.set(String(value), (set = new Set()));
        if (add) set.add(row.id);
        else {
          set.delete(row.id);
          if (set.size === 0) idx.delete(String(value));
        }
      }
    }
  }

  set(table: string, row: Row, shard: string) {
    const old = this.table(table).get(row.id);
    if (old) this.index(table, old, false);
    this.table(table).set(row.id, row);
    const misplaced = this.misplaced.get(table)!;
    if (shard !== this.specs.get(table)!.shard(row)) misplaced.set(row.id, shard);
    else if (misplaced.size) misplaced.delete(row.id);
    this.index(table, row, true);
  }

  /** The shard the committed row `id` of `table` is in, if there is one. */
  shardOfRow(table: string, id: string): string | undefined {
    const row = this.table(table).get(id);
    if (!row) return undefined;
    return this.misplaced.get(table)!.get(id) ?? this.specs.get(table)!.shard(row);
  }

  remove(table: string, id: string) {
    const old = this.table(table).get(id);
    if (!old) return;
    this.index(table, old, false);
    this.table(table).delete(id);
    this.misplaced.get(table)!.delete(id);
  }

  ids(table: string, field: string, value: string): Iterable<string> {
    const idx = this.indexes.get(table)?.get(field);
    if (!idx) throw new DocsError('bug', `no index on ${table}.${field}`);
    return idx.get(value) ?? [];
  }
}

/** Reads through a stack of uncommitted change layers (newest last) onto committed tables. */
class View implements ReadTx {
  constructor(
    protected readonly base: Tables,
    protected readonly layers: Changes[],
  ) {}

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
    return this.base.table(table).get(id) as T | undefined;
  }

  private merged(table: string, base: Iterable<Row>, keep: (r: Row) => boolean): Row[] {
    const overridden = new Map<string, Row | null>();
    for (const layer of this.layers) for (const [id, r] of layer.get(table) ?? []) overridden.set(id, r);
    const out: Row[] = [];
    for (const r of base) if (!overridden.has(r.id)) out.push(r);
    for (const r of overridden.values()) if (r && keep(r)) out.push(r);
    return out;
  }

  find<T extends Row>(table: string, field: string, value: string): T[] {
    const rows = this.base.table(table);
    const base = [...this.base.ids(table, field, value)].map((id) => rows.get(id)!);
    if (this.layers.length === 0) return base as T[];
    return this.merged(table, base, (r) => {
      const v = (r as any)[field];
      return Array.isArray(v) ? v.map(String).includes(value) : v !== undefined && v !== null && String(v) === value;
    }) as T[];
  }

  all<T extends Row>(table: string): T[] {
    const base = this.base.table(table).values();
    if (this.layers.length === 0) return [...base] as T[];
    return this.merged(table, base, () => true) as T[];
  }
}

class Tx extends View implements WriteTx {
  readonly changes: Changes = new Map();
  constructor(base: Tables, batch: Changes) {
    super(base, [batch]);
    this.layers.push(this.changes);
  }
  private layer(table: string) {
    this.base.table(table); // throws on an unknown table
    let m = this.changes.get(table);
    if (!m) this.changes.set(table, (m = new Map()));
    return m;
  }
  put<T extends Row>(table: string, row: T): T {
    if (typeof row.id !== 'string' || !row.id) throw new DocsError('bug', `row without id in ${table}`);
    this.layer(table).set(row.id, deepFreeze(row));
    return row;
  }
  delete(table: string, id: string): boolean {
    const existed = this.get(table, id) !== undefined;
    if (existed) this.layer(table).set(id, null);
    return existed;
  }
}

interface Job {
  fn: (tx: WriteTx) => unknown;
  resolve: (v: any) => void;
  reject: (e: unknown) => void;
}

/**
 * The store engine: all rows in memory, grouped into shards that are persisted separately.
 * Writes queue up; one loop runs the queued functions in order against a batch layer, then
 * commits the shards they touched in one atomic, durable commit (group commit), then makes the
 * batch visible to reads and resolves each caller. A failed commit rejects the whole batch and
 * leaves the committed state as it was on disk.
 */
export class ShardStore implements Store {
  private readonly tables: Tables;
  private queue: Job[] = [];
  private running: Promise<void> | null = null;
  private closed = false;

  private constructor(
    private readonly persistence: Persistence,
    specs: TableSpec[],
  ) {
    this.tables = new Tables(new Map(specs.map((s) => [s.name, s])));
  }

  static async open(persistence: Persistence, specs: TableSpec[]): Promise<ShardStore> {
    const store = new ShardStore(persistence, specs);
    for (const [key, data] of await persistence.load()) {
      store.tables.shards.set(key, data);
      for (const [table, rows] of Object.entries(data)) {
        if (!store.tables.specs.has(table)) continue; // a table of a newer version: kept on disk
        for (const row of Object.values(rows)) store.tables.set(table, deepFreeze(row), key);
      }
    }
    return store;
  }

  async read<R>(fn: (tx: ReadTx) => R): Promise<R> {
    return fn(new View(this.tables, []));
  }

  write<R>(fn: (tx: WriteTx) => R): Promise<R> {
    if (this.closed) return Promise.reject(new DocsError('unavailable', 'the store is closed'));
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ fn, resolve, reject });
      this.kick();
    });
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
      const jobs = this.queue.splice(0);
      const batch: Changes = new Map();
      const done: [Job, unknown][] = [];
      for (const job of jobs) {
        const tx = new Tx(this.tables, batch);
        try {
          const result = job.fn(tx);
          if (result instanceof Promise) throw new DocsError('bug', 'a write function must be synchronous');
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
        if (batch.size) await this.commit(batch);
        for (const [job, result] of done) job.resolve(result);
      } catch (err) {
        const e = new DocsError('unavailable', 'the write could not be made durable; nothing was changed', { cause: err });
        for (const [job] of done) job.reject(e);
      }
    }
  }

  private async commit(batch: Changes): Promise<void> {
    const t = this.tables;
    const next = new Map<string, ShardData>(); // shard -> new content (tables copied on write)
    const shardFor = (key: string) => {
      let d = next.get(key);
      if (!d) next.set(key, (d = { ...(t.shards.get(key) ?? {}) }));
      return d;
    };
    const copied = new Set<string>();
    const tableIn = (key: string, table: string) => {
      const d = shardFor(key);
      const k = key + '\0' + table;
      if (!copied.has(k)) {
        d[table] = { ...(d[table] ?? {}) };
        copied.add(k);
      }
      return d[table]!;
    };
    const moves: [string, string, Row | null, string | undefined][] = [];
    for (const [table, rows] of batch) {
      const spec = t.specs.get(table)!;
      for (const [id, row] of rows) {
        const oldShard = t.shardOfRow(table, id);
        const newShard = row ? spec.shard(row) : undefined;
        if (oldShard && oldShard !== newShard) delete tableIn(oldShard, table)[id];
        if (row && newShard) tableIn(newShard, table)[id] = row;
        moves.push([table, id, row, newShard]);
      }
    }
    const changes = new Map<string, ShardData | null>();
    for (const [key, data] of next) {
      for (const [table, rows] of Object.entries(data)) if (Object.keys(rows).length === 0) delete data[table];
      changes.set(key, Object.keys(data).length ? data : null);
    }
    await this.persistence.commit(changes);
    for (const [key, data] of changes) {
      if (data) t.shards.set(key, data);
      else t.shards.delete(key);
    }
    for (const [table, id, row, shard] of moves) {
      if (row) t.set(table, row, shard!);
      else t.remove(table, id);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    while (this.running) await this.running;
  }
}
