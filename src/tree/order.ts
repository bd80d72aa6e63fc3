import type { CollectionRecord } from '../collections/model.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { ReadTx, Table, WriteTx } from '../store/port.js';
import { Collections } from '../collections/tables.js';
import { Spaces } from '../spaces/tables.js';
import { summaryLast, summaryRows } from '../store/summaries.js';

// The tree of one organization: collections nest, spaces sit in a collection or at the root.
// Within one parent, collections come first, then spaces (folders first, as file browsers show
// them), and each kind keeps its own stable order given by `position`. The API exposes no
// position, only the order of its lists; ordering each kind on its own is what those lists can
// show. Deleted spaces are not part of the tree.

export type TreeItem = { kind: 'collection'; row: CollectionRecord } | { kind: 'space'; row: SpaceRecord };

const byPosition = (a: TreeItem, b: TreeItem) =>
  (a.kind === b.kind ? 0 : a.kind === 'collection' ? -1 : 1) ||
  a.row.position - b.row.position ||
  a.row.createdAt.localeCompare(b.row.createdAt) ||
  a.row.id.localeCompare(b.row.id);

/**
 * Every space row of the organization (deleted ones too), unordered: from its summary (a few
 * shards, however many spaces), or, on a store without summaries, from each space's shard.
 */
export function orgSpaces(tx: ReadTx, organization: string): SpaceRecord[] {
  return summaryRows(tx, Spaces, organization) ?? tx.find(Spaces, 'organization', organization);
}

function children(tx: ReadTx, organization: string, parent: string | null): TreeItem[] {
  let cols: CollectionRecord[];
  let spaces: SpaceRecord[];
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
  order.forEach((item, position) => {
    if (item === changed) tx.put(tableOf(item), { ...item.row, position });
    else if (item.row.position !== position) tx.put(tableOf(item), { ...item.row, position });
  });
}

/** The table of a tree item: rows of either kind, so its row type is not checked (`any`). */
export const tableOf = (item: TreeItem): Table<any> => (item.kind === 'collection' ? Collections : Spaces);
