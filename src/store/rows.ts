import { DocsError } from '../kernel/errors.js';
import type { Row, TableSpec } from './port.js';

// Every row put is frozen (an audit event: 5–7 objects a write): for...in and an index loop make
// no array of values, as Object.values did for each object.
export function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    if (Array.isArray(o)) for (let i = 0; i < o.length; i++) deepFreeze(o[i]);
    else for (const k in o) if (Object.hasOwn(o, k)) deepFreeze((o as Record<string, unknown>)[k]);
  }
  return o;
}

// About how many bytes of V8's heap a value parsed from JSON takes, for the cache bound
// (DOCS_CACHE_MB counts memory, not file size: parsed shards take 1.1–2.0x their text). V8's
// layout on 64-bit with pointer compression off: an object is a header and a slot per property
// (their names are shared by objects of one shape), a dictionary-mode object (many keys, as a
// directory's ids) 3 words per entry and its own key strings; a string its header and one byte per
// character. Measured against heapUsed deltas on real shards (bodies, nodes, revisions, audit,
// summaries, directories): 0.9–1.2x what the heap grew.
const DICTIONARY_KEYS = 32;
const stringBytes = (s: string) => 16 + ((s.length + 7) & ~7);

// One pass (for...in, an index loop: no key or value arrays made), freezing as it goes when
// asked: ~3x quicker than deepFreeze's Object.values walk alone, on node segments.
function measure(o: object, freeze: boolean): number {
  if (freeze) Object.freeze(o);
  let n = 0;
  if (Array.isArray(o)) {
    for (let i = 0; i < o.length; i++) n += valueBytes(o[i], freeze);
    return n + 16 + 8 * o.length;
  }
  let keys = 0;
  let keyBytes = 0;
  for (const k in o) {
    keys++;
    keyBytes += stringBytes(k);
    n += valueBytes((o as Record<string, unknown>)[k], freeze);
  }
  return n + 24 + (keys > DICTIONARY_KEYS ? 24 * keys + keyBytes : 8 * keys);
}

function valueBytes(v: unknown, freeze: boolean): number {
  if (typeof v === 'string') return stringBytes(v);
  return typeof v === 'object' && v !== null ? measure(v, freeze) : 0;
}

/** Freezes a row as deepFreeze does and answers about how many bytes of heap it takes. */
export const freezeMeasured = (row: object): number => measure(row, true);

/**
 * Freezes a row and the objects of its fields (a summary bucket: the row, its map of entries),
 * not what those hold (TableSpec.heapPerTextChar: values only the store's own code reads).
 */
export function freezeFields(row: object): void {
  Object.freeze(row);
  for (const k in row) {
    const v = (row as Record<string, unknown>)[k];
    if (typeof v === 'object' && v !== null) Object.freeze(v);
  }
}

/** About how many bytes of heap a value parsed from JSON takes (see measure). */
export const heapBytes = (o: unknown): number => valueBytes(o, false);

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
