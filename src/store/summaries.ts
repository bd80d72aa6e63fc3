import { bucketOf } from './buckets.js';
import type { NamedReadTx, NamedWriteTx, ReadTx, Row, Table, TableSpec } from './port.js';

// Per-group summaries of a table kept at commit time (issue 28 item 3): a table whose rows each
// live in their own shard (`spaces`: space/<id>) but are listed by a group (the organization)
// declares `summary` in src/store/tables.ts, and every put or delete of one of its rows also
// updates a copy of the row in its group's summary, in the same transaction (so the summary is
// committed with the row, or neither is, and can never drift). Listing a group then reads
// BUCKETS summary shards instead of one shard per row.
//   sum/<table>/<group>/<b>     the rows of the group whose id falls in bucket b: per id, the
//                               summary's `fields` of the row as a tuple (not the whole row: a
//                               list reads the rows it shows from their shards)
//   sum/<table>/<group>/head    per `last` key, the highest value ever written (the next position
//                               of a new row never needs its siblings read)
// A store written before summaries existed has none: the first open builds every summary from
// the rows and then sets the `meta` row MARKER (root), in one write. Until that marker is set,
// puts do not touch summaries and readers fall back to the rows. The marker holds the SHAPE the
// summaries were built in: a store whose summaries have another (whole rows, before SHAPE 2) is
// built again at open the same way.

export const SUMMARIES = 'summaries';
export const MARKER = 'summaries';
/** The shape of the summaries (the marker's `built`): 1 whole rows; 2 tuples of `fields`. */
export const SHAPE = 2;
/** Buckets per group: a write rewrites one bucket (1/64 of the group), a listing reads all of them. */
export const BUCKETS = 64;

export const summariesTable: TableSpec = {
  name: SUMMARIES,
  shard: (r) => `sum/${r.id}`,
  indexes: [],
  locateId: (id) => `sum/${id}`,
  // rows.ts heapBytes of the summary shards of 10,000 spaces / their text: 2.25 MB / 0.96 MB.
  heapPerTextChar: 2.4,
};

type Entry = unknown[];
interface Bucket extends Row {
  rows: Record<string, Entry>;
}
interface Head extends Row {
  last: Record<string, number>;
}

const bucketId = (table: string, group: string, b: number) => `${table}/${group}/${b}`;
const headId = (table: string, group: string) => `${table}/${group}/head`;

/** Is this marker row (of `meta`) that of summaries built in the current SHAPE? */
export const summariesCurrent = (marker: Row | undefined) => (marker as { built?: number } | undefined)?.built === SHAPE;

/** Are summaries built in this store (the marker row of `meta`, in the resident root shard)? */
export const summariesBuilt = (tx: NamedReadTx) => summariesCurrent(tx.get('meta', MARKER));

/** A row's entry in its summary: its `fields` in order, trailing absent ones left out. */
function entryOf(fields: string[], row: Row): Entry {
  const out = fields.map((f) => (row as unknown as Record<string, unknown>)[f] ?? null);
  while (out.length && out.at(-1) === null) out.pop();
  return out;
}

const sameEntry = (a: Entry | undefined, b: Entry) => a !== undefined && a.length === b.length && a.every((v, i) => v === b[i]);

/** Keeps the summary of `spec`'s table in step with one row change (called by the store's Tx). */
export function maintain(tx: NamedWriteTx, spec: TableSpec, id: string, old: Row | undefined, row: Row | null): void {
  const s = spec.summary!;
  if (!summariesBuilt(tx)) return;
  const b = bucketOf(id, BUCKETS);
  const before = old ? s.group(old) : undefined;
  const after = row ? s.group(row) : undefined;
  if (before !== undefined && before !== after) {
    const bucket = tx.get<Bucket>(SUMMARIES, bucketId(spec.name, before, b));
    if (bucket?.rows[id]) {
      const rows = { ...bucket.rows };
      delete rows[id];
      if (Object.keys(rows).length) tx.put(SUMMARIES, { ...bucket, rows });
      else tx.delete(SUMMARIES, bucket.id);
    }
  }
  if (row && after !== undefined) {
    const bid = bucketId(spec.name, after, b);
    const bucket = tx.get<Bucket>(SUMMARIES, bid);
    const entry = entryOf(s.fields, row);
    // A change the summary does not keep (a title) leaves its bucket alone.
    if (before !== after || !sameEntry(bucket?.rows[id], entry)) tx.put(SUMMARIES, { id: bid, rows: { ...bucket?.rows, [id]: entry } });
    if (s.last) {
      const hid = headId(spec.name, after);
      const head = tx.get<Head>(SUMMARIES, hid);
      const key = s.last.key(row);
      const value = s.last.value(row);
      if (!head || !(key in head.last) || head.last[key]! < value) tx.put(SUMMARIES, { id: hid, last: { ...head?.last, [key]: value } });
    }
  }
}

/** Writes every summary of `specs` from the rows (a store written before summaries), then the marker. */
export function buildSummaries(tx: NamedWriteTx, specs: TableSpec[]): void {
  if (summariesBuilt(tx)) return;
  for (const spec of specs) {
    const s = spec.summary;
    if (!s) continue;
    const buckets = new Map<string, Record<string, Entry>>();
    const heads = new Map<string, Record<string, number>>();
    for (const row of tx.all<Row>(spec.name)) {
      const group = s.group(row);
      if (group === undefined) continue;
      const bid = bucketId(spec.name, group, bucketOf(row.id, BUCKETS));
      if (!buckets.has(bid)) buckets.set(bid, {});
      buckets.get(bid)![row.id] = entryOf(s.fields, row);
      if (s.last) {
        const hid = headId(spec.name, group);
        if (!heads.has(hid)) heads.set(hid, {});
        const last = heads.get(hid)!;
        const key = s.last.key(row);
        last[key] = Math.max(last[key] ?? -Infinity, s.last.value(row));
      }
    }
    // A rebuild (the marker cleared by `docs doctor --repair`) replaces what an earlier build left:
    // a bucket no row falls in any more goes; a head keeps the highest value it ever had, so a new
    // row's position never repeats one given before.
    const groups = new Set([...buckets.keys()].map((id) => id.slice(spec.name.length + 1, id.lastIndexOf('/'))));
    for (const g of s.groups?.(tx) ?? []) groups.add(g);
    for (const group of groups) {
      for (let b = 0; b < BUCKETS; b++) {
        const id = bucketId(spec.name, group, b);
        if (!buckets.has(id) && tx.get(SUMMARIES, id)) tx.delete(SUMMARIES, id);
      }
      const hid = headId(spec.name, group);
      const old = tx.get<Head>(SUMMARIES, hid);
      if (!old) continue;
      const merged = heads.get(hid) ?? {};
      for (const [k, v] of Object.entries(old.last)) merged[k] = Math.max(merged[k] ?? -Infinity, v);
      heads.set(hid, merged);
    }
    for (const [id, rows] of buckets) tx.put(SUMMARIES, { id, rows });
    for (const [id, last] of heads) tx.put(SUMMARIES, { id, last });
  }
  tx.put('meta', { id: MARKER, built: SHAPE });
}

const named = (tx: ReadTx) => tx as unknown as NamedReadTx;

/**
 * Every row of `table` in `group` as its summary keeps it, unordered (as `find`): `make` turns
 * an id and its entry (the SummarySpec's `fields` in order, trailing absent ones left out) into
 * the caller's object, an object literal of one shape (objects given their keys one by one would
 * be dictionaries, several times slower to sort). The list and its objects are frozen: the same
 * list is given to every caller while the group's summary is unchanged (see `decoded`). Undefined
 * when the store has no summaries yet (the caller reads the rows instead).
 */
export function summaryRows<T>(tx: ReadTx, table: Table<any>, group: string, make: (id: string, entry: readonly unknown[]) => T): readonly T[] | undefined {
  const t = named(tx);
  if (!summariesBuilt(t)) return undefined;
  // Every bucket is asked before any is used, so the missing ones are loaded in one round.
  const buckets = Array.from({ length: BUCKETS }, (_, b) => t.get<Bucket>(SUMMARIES, bucketId(table, group, b)));
  const key = `${table}/${group}`;
  const last = decoded.get(key);
  if (last && last.make === make && last.buckets.every((b, i) => b === buckets[i])) return last.out as readonly T[];
  const out: T[] = [];
  for (const bucket of buckets) {
    if (!bucket) continue;
    const rows = bucket.rows;
    for (const id of Object.keys(rows)) out.push(Object.freeze(make(id, rows[id]!)));
  }
  Object.freeze(out);
  decoded.delete(key);
  decoded.set(key, { make, buckets, out });
  if (decoded.size > DECODED_GROUPS) decoded.delete(decoded.keys().next().value!);
  return out;
}

/**
 * The last list summaryRows made per group, with the bucket rows it was made of: while those are
 * the same (rows are frozen, a change puts a new one) the same list is given again, frozen. A
 * read runs again after each round of shard loads (a page of spaces: the summary's round, then
 * the page's rows, so twice over the summary), and `docs serve` lists the same organization
 * again and again: the entries of 10,000 spaces are made once, not on every run.
 */
const decoded = new Map<string, { make: unknown; buckets: (Bucket | undefined)[]; out: readonly unknown[] }>();
/** Few: a list holds its bucket rows beyond the cache bound (~3 MB at 10,000 spaces, entries included). */
const DECODED_GROUPS = 4;

/** The highest `last` value of `key` ever written in `group`'s summary; null when none; undefined without summaries. */
export function summaryLast(tx: ReadTx, table: Table<any>, group: string, key: string): number | null | undefined {
  const t = named(tx);
  if (!summariesBuilt(t)) return undefined;
  return t.get<Head>(SUMMARIES, headId(table, group))?.last[key] ?? null;
}
