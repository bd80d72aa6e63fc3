import { DocsError } from '../kernel/errors.js';
import type { Row, TableSpec } from './port.js';

export function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

/** The values of `field` in `row` that an index holds (each element of an array field). */
export function valuesOf(row: Row, field: string): string[] {
  const v = (row as any)[field];
  return Array.isArray(v) ? v.map(String) : v === undefined || v === null ? [] : [String(v)];
}

/**
 * The committed rows of the loaded shards, by table, with secondary indexes. Rows of a shard come
 * in when it is loaded and leave when it is evicted; a row is in one shard only.
 */
export class Rows {
  private readonly rows = new Map<string, Map<string, Row>>();
  private readonly indexes = new Map<string, Map<string, Map<string, Set<string>>>>(); // table -> field -> value -> ids

  constructor(readonly specs: Map<string, TableSpec>) {
    for (const spec of specs.values()) {
      this.rows.set(spec.name, new Map());
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
      for (const value of valuesOf(row, field)) {
        let set = idx.get(value);
        if (!set) idx.set(value, (set = new Set()));
        if (add) set.add(row.id);
        else {
          set.delete(row.id);
          if (set.size === 0) idx.delete(value);
        }
      }
    }
  }

  set(table: string, row: Row) {
    const t = this.table(table);
    const old = t.get(row.id);
    if (old) this.index(table, old, false);
    t.set(row.id, row);
    this.index(table, row, true);
  }

  remove(table: string, id: string) {
    const t = this.table(table);
    const old = t.get(id);
    if (!old) return;
    this.index(table, old, false);
    t.delete(id);
  }

  ids(table: string, field: string, value: string): Iterable<string> {
    const idx = this.indexes.get(table)?.get(field);
    if (!idx) throw new DocsError('bug', `no index on ${table}.${field}`);
    return idx.get(value) ?? [];
  }
}
