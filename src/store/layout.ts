import { bucketOf } from './buckets.js';
import type { ShardData } from './backend.js';
import type { Row, TableSpec } from './port.js';
import { valuesOf } from './rows.js';
import type { SegmentFilter } from './segment-filter.js';

// How rows map to shard keys beyond `spec.shard`: the directories the store keeps for ids and
// fields without a locator, and the segments of immutable tables. Pure functions, shared by the
// engine and the migration from older layouts.

/** Shards whose tables start with `$` hold the store's own records, never service rows. */
export const DIR = '$dir'; // directory shard: { $dir: { [value]: { [id]: shardKey } } }
export const SEGMENTS = '$segments'; // group index: { $segments: { [segmentKey]: { id, seq, rows, filter?, bytes? } } }
export const LAYOUT = '$layout'; // the catalog shard: { $layout: { store: { id, layout } } }

export const CATALOG_KEY = 'catalog';
/** Layout 2: lazy shards, directories, segments. Layout 1 (no catalog) loaded every shard. */
export const LAYOUT_VERSION = 2;
const DIR_BUCKETS = 64;

export const dirKey = (table: string, field: string, value: string) => `dir/${table}.${field}/${bucketOf(value, DIR_BUCKETS)}`;
export const allDirKeys = (table: string) => Array.from({ length: DIR_BUCKETS }, (_, b) => `dir/${table}.id/${b}`);

export interface SegmentInfo {
  id: string;
  seq: number;
  rows: number;
  /**
   * The ids the segment holds, as a Bloom filter (src/store/segment-filter.ts): a lookup of one
   * row skips the segments whose filter leaves its id out. Absent (segments written before it,
   * or adopted by `docs doctor --repair`): the segment may hold any id and is read.
   */
  filter?: SegmentFilter;
  /** Its serialized size when written (absent before filters): a segment of SEGMENT_BYTES / 2 or more is sealed. */
  bytes?: number;
}

/**
 * Segments of the binary counter (groups without `segmentFanOut`) are cut at about this size and,
 * once half of it, never merged again: reading one row reads at most one segment of this size
 * (plus a false positive now and then), whatever the size of the group.
 */
export const SEGMENT_BYTES = 256 * 1024;
const sealed = (s: SegmentInfo) => s.bytes !== undefined && s.bytes >= SEGMENT_BYTES / 2;

/**
 * The segments a commit adding `count` rows to a group merges into its new segment (`list`:
 * the group's segments, oldest first). The binary counter: the newest segments while they hold
 * no more than twice what is merged so far (a group then has O(log n) segments below the seal);
 * with `fanOut`, size tiers. Pure, so that a commit's plan loads exactly what the commit merges.
 */
export function segmentsToMerge(list: SegmentInfo[], count: number, fanOut?: number): SegmentInfo[] {
  const rest = [...list];
  const out: SegmentInfo[] = [];
  if (fanOut && fanOut > 2) {
    // Size tiers (a segment of n rows is in tier floor(log_fanOut n)): once the new rows and
    // the newest segments of their tier or below are fanOut segments, they become one, and so on
    // up. A row is rewritten about log_fanOut(n) times instead of log2(n), for at most
    // fanOut - 1 segments per tier.
    const tier = (n: number) => Math.floor(Math.log(Math.max(n, 1)) / Math.log(fanOut));
    for (;;) {
      let k = rest.length;
      while (k > 0 && tier(rest[k - 1]!.rows) <= tier(count)) k--;
      if (rest.length - k + 1 < fanOut) break;
      for (const seg of rest.splice(k)) {
        out.push(seg);
        count += seg.rows;
      }
    }
    return out;
  }
  // Sealed segments are out of the counter: a segment written before one is still merged.
  const open = rest.filter((s) => !sealed(s));
  for (let last = open.pop(); last && last.rows <= 2 * count; last = open.pop()) {
    out.push(last);
    count += last.rows;
  }
  return out;
}

/** The fields of a table that have a directory (`id` included when the id does not say where). */
export function directoryFields(spec: TableSpec): string[] {
  const fields = spec.indexes.filter((f) => !spec.locate?.[f]);
  if (!spec.locateId || spec.enumerable) fields.unshift('id');
  return spec.immutable ? [] : fields;
}

export const dirValues = (row: Row, field: string) => (field === 'id' ? [row.id] : valuesOf(row, field));

/** Segments of a group index, oldest first. */
export function segmentsOf(index: ShardData | undefined): SegmentInfo[] {
  return Object.values((index?.[SEGMENTS] ?? {}) as Record<string, SegmentInfo>).sort((a, b) => a.seq - b.seq);
}

export const isStoreTable = (table: string) => table.startsWith('$');
