import { bucketOf } from './buckets.js';
import type { ShardData } from './backend.js';
import type { Row, TableSpec } from './port.js';
import { valuesOf } from './rows.js';

// How rows map to shard keys beyond `spec.shard`: the directories the store keeps for ids and
// fields without a locator, and the segments of immutable tables. Pure functions, shared by the
// engine and the migration from older layouts.

/** Shards whose tables start with `$` hold the store's own records, never service rows. */
export const DIR = '$dir'; // directory shard: { $dir: { [value]: { [id]: shardKey } } }
export const SEGMENTS = '$segments'; // group index: { $segments: { [segmentKey]: { id, seq, rows } } }
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
