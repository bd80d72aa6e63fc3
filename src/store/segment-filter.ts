// A Bloom filter of the ids a segment holds, kept in its group index ($segments), so that reading
// one row of an immutable group (a page body by its id) loads the segments that may hold it, not
// every segment of the group. A filter never leaves out an id its segment holds (a lookup that
// skipped a segment holding the row would answer "absent" for a row that exists); it may let
// through an id the segment does not hold, which only costs reading that segment.
//
// The hash below is part of the stored format: filters written by one version are read by the
// next. Change it only with a new field name (a segment without `filter` is read as before).

/** Bits per id and probes: 14 and 10 give ~0.1% false positives, so a lookup in a group of 100 segments reads ~1.1. */
const BITS_PER_ID = 14;
const PROBES = 10;

/** As stored in a SegmentInfo: `bits` is base64, its length in bits the filter's size. */
export interface SegmentFilter {
  k: number;
  bits: string;
}

/** Two independent 32-bit hashes of an id (FNV-1a and a murmur-style mix over UTF-16 units). */
export function idHash(id: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c ^ id.length;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  b ^= b >>> 16;
  return [a >>> 0, (b | 1) >>> 0];
}

/** The filter of `ids` (every id of every table the segment holds). */
export function filterOf(ids: Iterable<string>): SegmentFilter {
  const list = [...ids];
  const bytes = new Uint8Array(Math.max(8, Math.ceil((list.length * BITS_PER_ID) / 8)));
  const m = bytes.length * 8;
  for (const id of list) {
    const [h1, h2] = idHash(id);
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + Math.imul(i, h2)) >>> 0;
      const at = bit % m;
      bytes[at >>> 3]! |= 1 << (at & 7);
    }
  }
  return { k: PROBES, bits: Buffer.from(bytes).toString('base64') };
}

// Decoded filters, by the stored object (a group index read or committed anew brings new objects).
const decoded = new WeakMap<SegmentFilter, Uint8Array>();

/** False only when the segment does not hold the id whose hash is `h`. */
export function mayHold(filter: SegmentFilter, h: [number, number]): boolean {
  let bytes = decoded.get(filter);
  if (!bytes) {
    bytes = new Uint8Array(Buffer.from(filter.bits, 'base64'));
    decoded.set(filter, bytes);
  }
  const m = bytes.length * 8;
  if (m === 0) return true; // not a filter this version can read: the segment may hold anything
  const [h1, h2] = h;
  for (let i = 0; i < filter.k; i++) {
    const at = ((h1 + Math.imul(i, h2)) >>> 0) % m;
    if (!(bytes[at >>> 3]! & (1 << (at & 7)))) return false;
  }
  return true;
}

/** A stored filter this version can use (anything else: the segment is read as if it had none). */
export const usableFilter = (f: unknown): f is SegmentFilter =>
  !!f &&
  typeof f === 'object' &&
  Number.isInteger((f as SegmentFilter).k) &&
  (f as SegmentFilter).k > 0 &&
  (f as SegmentFilter).k <= 64 &&
  typeof (f as SegmentFilter).bits === 'string';

/** An id of `data` (a segment) that `filter` leaves out, if any: a lookup would not find that row. */
export function idLeftOut(filter: unknown, data: Record<string, Record<string, unknown>> | undefined): string | undefined {
  if (filter === undefined || !data) return undefined;
  if (!usableFilter(filter)) return undefined; // read as having none: nothing is left out
  for (const [table, rows] of Object.entries(data)) {
    if (table.startsWith('$')) continue;
    for (const id of Object.keys(rows)) if (!mayHold(filter, idHash(id))) return id;
  }
  return undefined;
}
