import { newId } from '../kernel/ids.js';
import { table, type ReadTx, type Row, type Table, type TableSpec, type WriteTx } from '../store/port.js';
import { TABLES } from '../store/tables.js';

// A space's content is every row of its `space/<id>` shard or of a bucket of it
// (`space/<id>/<part>`), whatever the table. Duplicate and purge work on that set generically,
// so a content table added later (pages, files, change requests, comments, ...) is copied and
// purged with no change here. A table opts in by living in the space's shard: its `shard` is
// `space/${row.space}` (or under it) and it indexes `space` (checked by
// test/spaces/content-rows.test.ts for every table). So these tables are named by their specs,
// not by their owners' handles: this walk reads any area's rows without knowing the areas.

const PROBE = '\u0000probe';

/** Whether shard key `shard` is space `spaceId`'s shard or one of its buckets. */
const inSpaceShard = (shard: string, spaceId: string) => shard === `space/${spaceId}` || shard.startsWith(`space/${spaceId}/`);

/** The tables whose rows live in a `space/<id>` shard. */
export function spaceContentTables(): TableSpec[] {
  return TABLES.filter((t) => {
    try {
      // Another id than the space: the `spaces` row itself lives in `space/<its id>`, not in its content.
      return inSpaceShard(t.shard({ id: PROBE + 'row', space: PROBE }), PROBE);
    } catch {
      return false;
    }
  });
}

/** Every row in the shard of space `spaceId`, with its table. */
export function spaceContentRows(tx: ReadTx, spaceId: string): { table: Table<Row>; row: Row }[] {
  return spaceContentTables().flatMap((t) =>
    tx
      .find(table<Row, 'space'>(t.name), 'space', spaceId)
      .filter((row) => inSpaceShard(t.shard(row), spaceId))
      .map((row) => ({ table: table<Row>(t.name), row })),
  );
}

/**
 * Copies every content row of space `from` into space `to`, with new ids: a row id that embeds
 * the space id (a composite key) gets the new space id in its place, any other gets a fresh id.
 * Every string in the copied rows equal to an old id (the space, a revision, a page, a file...)
 * is replaced by the new one, so references inside the content keep pointing within the copy.
 * Returns the map old id -> new id (the space's own included).
 */
export function copySpaceContent(tx: WriteTx, from: string, to: string): Map<string, string> {
  const rows = spaceContentRows(tx, from);
  const ids = new Map<string, string>([[from, to]]);
  for (const { row } of rows) ids.set(row.id, row.id.includes(from) ? row.id.split(from).join(to) : newId());
  const remap = (v: unknown): unknown => {
    if (typeof v === 'string') return ids.get(v) ?? v;
    if (Array.isArray(v)) return v.map(remap);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, remap(x)]));
    return v;
  };
  for (const { table, row } of rows) tx.put(table, remap(row) as Row);
  return ids;
}

/** Deletes every content row of the space (its shard file goes with the last row). */
export function deleteSpaceContent(tx: WriteTx, spaceId: string): number {
  const rows = spaceContentRows(tx, spaceId);
  for (const { table, row } of rows) tx.delete(table, row.id);
  return rows.length;
}
