import type { CollectionRecord } from '../collections/model.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { ReadTx, Table, WriteTx } from '../store/port.js';
import { Collections } from '../collections/tables.js';
import { Spaces } from '../spaces/tables.js';
import { summaryLast, summaryRows } from '../store/summaries.js';
import { SPACE_SUMMARY_FIELDS } from '../store/tables.js';

// The tree of one organization: collections nest, spaces sit in a collection or at the root.
// Within one parent, collections come first, then spaces (folders first, as file browsers show
// them), and each kind keeps its own stable order given by `position`. The API exposes no
// position, only the order of its lists; ordering each kind on its own is what those lists can
// show. Deleted spaces are not part of the tree.

/**
 * What the tree knows of a space: the fields the organization's summary keeps (src/store/tables.ts
 * SPACE_SUMMARY_FIELDS), enough to order, filter and give access levels; a list reads the whole
 * rows of the spaces it shows (spaceRows). An absent field of the summary is null.
 */
export type SpaceEntry = Pick<SpaceRecord, 'id' | 'parent' | 'position' | 'createdAt' | 'defaultLevel' | 'revision'> & {
  deletedAt?: string | null;
  type?: SpaceRecord['type'] | null;
};

export type TreeItem = { kind: 'collection'; row: CollectionRecord } | { kind: 'space'; row: SpaceEntry };

const byPosition = (a: TreeItem, b: TreeItem) =>
  (a.kind === b.kind ? 0 : a.kind === 'collection' ? -1 : 1) ||
  a.row.position - b.row.position ||
  a.row.createdAt.localeCompare(b.row.createdAt) ||
  a.row.id.localeCompare(b.row.id);

const INDEX_BITS = 2 ** 20;

/**
 * `items` in order (byPosition). The usual case, one kind whose positions are distinct integers
 * (as endPosition and writeOrder give them), sorts numbers natively, each position packed with
 * its item's index (exact in a double below 2^53), instead of calling byPosition ~130,000 times
 * for 10,000 spaces; anything else (ties, other numbers, two kinds) sorts with byPosition.
 */
function sortItems(items: TreeItem[]): TreeItem[] {
  const n = items.length;
  if (n < 64 || n >= INDEX_BITS) return items.sort(byPosition);
  const kind = items[0]!.kind;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const item = items[i]!;
    const p = item.row.position;
    if (item.kind !== kind || !Number.isInteger(p) || p < 0 || p >= 2 ** 32) return items.sort(byPosition);
    keys[i] = p * INDEX_BITS + i;
  }
  keys.sort();
  const out = new Array<TreeItem>(n);
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    if (i > 0 && Math.floor(k / INDEX_BITS) === Math.floor(keys[i - 1]! / INDEX_BITS)) return items.sort(byPosition); // a tie
    out[i] = items[k % INDEX_BITS]!;
  }
  return out;
}

/**
 * Every space of the organization (deleted ones too), unordered, as its summary keeps them (a
 * few shards, however many spaces), or, on a store without summaries, from each space's shard.
 * Frozen, and the same list while the summary is unchanged (src/store/summaries.ts summaryRows).
 */
export function orgSpaces(tx: ReadTx, organization: string): readonly SpaceEntry[] {
  // Without summaries (only until the open that builds them): every space, then this organization's.
  return summaryRows(tx, Spaces, organization, spaceEntry) ?? tx.all(Spaces).filter((s) => s.organization === organization);
}

/** Where each field sits in a summary entry: found by name in SPACE_SUMMARY_FIELDS, never written out. */
const at = Object.fromEntries(SPACE_SUMMARY_FIELDS.map((f, i) => [f, i])) as Record<(typeof SPACE_SUMMARY_FIELDS)[number], number>;

/**
 * A space's entry of the summary (its SPACE_SUMMARY_FIELDS, in that order) as a SpaceEntry: an
 * object literal, so the entries of 10,000 spaces share one shape made at once (keys set one by
 * one from the list, through a keyed store, cost ~3x to make; a test checks the literal names
 * every field of the list).
 */
export function spaceEntry(id: string, e: readonly unknown[]): SpaceEntry {
  return {
    id,
    parent: (e[at.parent] ?? null) as SpaceEntry['parent'],
    position: (e[at.position] ?? null) as SpaceEntry['position'],
    createdAt: (e[at.createdAt] ?? null) as SpaceEntry['createdAt'],
    defaultLevel: (e[at.defaultLevel] ?? null) as SpaceEntry['defaultLevel'],
    revision: (e[at.revision] ?? null) as SpaceEntry['revision'],
    deletedAt: (e[at.deletedAt] ?? null) as SpaceEntry['deletedAt'],
    type: (e[at.type] ?? null) as SpaceEntry['type'],
  };
}

/** The whole row of a space the tree gave (read from its shard unless it is one already). */
export function spaceRow(tx: ReadTx, entry: SpaceEntry): SpaceRecord {
  return 'title' in entry ? (entry as SpaceRecord) : tx.get(Spaces, entry.id)!;
}

/**
 * Asks for the whole rows of `entries` at once (before any is used: a read re-runs after each
 * round of shards loaded, so asking one by one while using each costs a run per row).
 */
export function prefetchSpaces(tx: ReadTx, entries: readonly { row: SpaceEntry }[]): void {
  for (const { row } of entries) spaceRow(tx, row);
}

function children(tx: ReadTx, organization: string, parent: string | null): TreeItem[] {
  let cols: CollectionRecord[];
  let spaces: SpaceEntry[];
  if (parent === null) {
    // Null is not indexed: the root's children are the organization's rows without a parent.
    cols = tx.find(Collections, 'organization', organization).filter((c) => c.parent === null);
    spaces = orgSpaces(tx, organization).filter((s) => s.parent === null);
  } else {
    cols = tx.find(Collections, 'parent', parent).filter((c) => c.organization === organization);
    spaces = tx.find(Spaces, 'parent', parent).filter((s) => s.organization === organization);
  }
  return [...cols.map((row) => ({ kind: 'collection' as const, row })), ...spaces.filter((s) => !s.deletedAt).map((row) => ({ kind: 'space' as const, row }))];
}

/** The children of `parent` (a collection id, or null for the root) of one kind, in order. */
export function siblings(tx: ReadTx, organization: string, parent: string | null, kind: TreeItem['kind']): TreeItem[] {
  return children(tx, organization, parent)
    .filter((i) => i.kind === kind)
    .sort(byPosition);
}

/** The whole tree, depth first, each parent before its children, siblings in order. Frozen. */
export function walk(tx: ReadTx, organization: string): readonly Walked[] {
  const cols = tx.find(Collections, 'organization', organization);
  const all = orgSpaces(tx, organization);
  // The same summary list and the same collections: the same walk (see `walks`).
  const last = walks.get(all);
  if (last && last.cols.length === cols.length && last.cols.every((c, i) => c === cols[i])) return last.out;
  const spaces = all.filter((s) => !s.deletedAt);
  const byParent = new Map<string | null, TreeItem[]>();
  const add = (parent: string | null, item: TreeItem) => {
    let list = byParent.get(parent);
    if (!list) byParent.set(parent, (list = []));
    list.push(item);
  };
  for (const row of cols) add(row.parent, { kind: 'collection', row });
  for (const row of spaces) add(row.parent, { kind: 'space', row });
  const out: Walked[] = [];
  const visit = (parent: string | null, depth: number) => {
    for (const item of sortItems(byParent.get(parent) ?? [])) {
      out.push(Object.freeze({ item: Object.freeze(item), depth }));
      if (item.kind === 'collection') visit(item.row.id, depth + 1);
    }
  };
  visit(null, 0);
  Object.freeze(out);
  if (Object.isFrozen(all)) walks.set(all, { cols, out });
  return out;
}

type Walked = { readonly item: TreeItem; readonly depth: number };

/**
 * The last walk of an organization, by the summary list it was made from (a frozen list, the
 * same while the summary is unchanged) and its collections: a read runs again after each round
 * of shard loads (a page of spaces walks the tree twice), and `docs serve` lists again and
 * again; 10,000 spaces are sorted once, not on every run.
 */
const walks = new WeakMap<readonly SpaceEntry[], { cols: CollectionRecord[]; out: readonly Walked[] }>();

/**
 * The position after every current child of `parent` of that kind. For spaces, after every
 * position a space of this parent ever had (the summary's head keeps the highest), so creating a
 * space reads no sibling; the order it gives among the live ones is the same.
 */
export function endPosition(tx: ReadTx, organization: string, parent: string | null, kind: TreeItem['kind']): number {
  if (kind === 'space') {
    const last = summaryLast(tx, Spaces, organization, parent ?? '');
    if (last !== undefined) return (last ?? -1) + 1;
  }
  return (
    Math.max(
      -1,
      ...children(tx, organization, parent)
        .filter((i) => i.kind === kind)
        .map((i) => i.row.position),
    ) + 1
  );
}

/** Every collection inside `root` (at any depth), and `root` itself first. */
export function collectionSubtree(tx: ReadTx, root: CollectionRecord): CollectionRecord[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) {
    out.push(...tx.find(Collections, 'parent', out[i]!.id).filter((c) => c.organization === root.organization));
  }
  return out;
}

/** Spaces (deleted ones too) whose parent is one of `collections`. */
export function spacesIn(tx: ReadTx, collections: CollectionRecord[]): SpaceRecord[] {
  return collections.flatMap((c) => tx.find(Spaces, 'parent', c.id).filter((s) => s.organization === c.organization));
}

/**
 * Writes `order` as the children's order: each row whose position is not its index is put
 * again with its new position. `changed` (the moved item, already updated) is always put.
 */
export function writeOrder(tx: WriteTx, order: TreeItem[], changed: TreeItem): void {
  // A space of the tree may be its summary entry: the whole row is read before it is put again.
  const whole = (item: TreeItem) => (item.kind === 'space' ? spaceRow(tx, item.row) : item.row);
  order.forEach((item, position) => {
    if (item === changed) tx.put(tableOf(item), { ...whole(item), position });
    else if (item.row.position !== position) tx.put(tableOf(item), { ...whole(item), position });
  });
}

/** The table of a tree item: rows of either kind, so its row type is not checked (`any`). */
export const tableOf = (item: TreeItem): Table<any> => (item.kind === 'collection' ? Collections : Spaces);
