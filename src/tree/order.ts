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

/**
 * Every space of the organization (deleted ones too), unordered, as its summary keeps them (a
 * few shards, however many spaces), or, on a store without summaries, from each space's shard.
 */
export function orgSpaces(tx: ReadTx, organization: string): SpaceEntry[] {
  // Without summaries (only until the open that builds them): every space, then this organization's.
  return summaryRows(tx, Spaces, organization, spaceEntry) ?? tx.all(Spaces).filter((s) => s.organization === organization);
}

/** A space's entry of the summary (its SPACE_SUMMARY_FIELDS, in that order) as a SpaceEntry. */
export function spaceEntry(id: string, e: readonly unknown[]): SpaceEntry {
  const entry: Record<string, unknown> = { id };
  for (let i = 0; i < SPACE_SUMMARY_FIELDS.length; i++) entry[SPACE_SUMMARY_FIELDS[i]!] = e[i] ?? null;
  return entry as SpaceEntry;
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

/** The whole tree, depth first, each parent before its children, siblings in order. */
export function walk(tx: ReadTx, organization: string): { item: TreeItem; depth: number }[] {
  const cols = tx.find(Collections, 'organization', organization);
  const spaces = orgSpaces(tx, organization).filter((s) => !s.deletedAt);
  const byParent = new Map<string | null, TreeItem[]>();
  const add = (parent: string | null, item: TreeItem) => {
    let list = byParent.get(parent);
    if (!list) byParent.set(parent, (list = []));
    list.push(item);
  };
  for (const row of cols) add(row.parent, { kind: 'collection', row });
  for (const row of spaces) add(row.parent, { kind: 'space', row });
  const out: { item: TreeItem; depth: number }[] = [];
  const visit = (parent: string | null, depth: number) => {
    for (const item of (byParent.get(parent) ?? []).sort(byPosition)) {
      out.push({ item, depth });
      if (item.kind === 'collection') visit(item.row.id, depth + 1);
    }
  };
  visit(null, 0);
  return out;
}

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
