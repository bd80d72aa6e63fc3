import { conflict, invalid } from '../kernel/errors.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { WriteTx } from '../store/port.js';
import { requireCreateIn, requireLevel, type ContentAccess } from './access.js';
import { siblings, spaceRow, writeOrder, type TreeItem } from './order.js';
import { Collections } from '../collections/tables.js';
import { Spaces } from '../spaces/tables.js';

type Pointer = { type: 'space'; space: string } | { type: 'collection'; collection: string };

/** The body of moveSpace and moveCollection (validated against the contract already). */
export interface MoveInput {
  parent?: string | null;
  position?: { before?: Pointer; after?: Pointer };
}

const describeItem = (i: TreeItem) => `${i.kind} ${i.row.id}`;
const describeParent = (parent: string | null) => (parent === null ? "the organization's root" : `collection ${parent}`);

/** A space leaving its collection cannot stay `in-collection`: it becomes private, never wider. */
export function atRootVisibility(s: SpaceRecord, parent: string | null): SpaceRecord['visibility'] {
  return parent === null && s.visibility === 'in-collection' ? 'private' : s.visibility;
}

/** The item a position points at: a visible space or collection of the same organization. */
function resolvePointer(tx: WriteTx, access: ContentAccess, p: Pointer, field: string): TreeItem {
  if (p.type === 'space') {
    const row = tx.get(Spaces, p.space);
    if (!row || row.deletedAt || row.organization !== access.org.id || !access.space(row)) throw invalid(`${field}: no space ${p.space} in this organization`);
    return { kind: 'space', row };
  }
  const row = tx.get(Collections, p.collection);
  if (!row || row.organization !== access.org.id || !access.collection(row)) throw invalid(`${field}: no collection ${p.collection} in this organization`);
  return { kind: 'collection', row };
}

/**
 * Moves a space or a collection to a parent and/or a place among its siblings.
 *
 * - `parent` (a collection id, or null for the root) when given; else the parent of the item
 *   `position` points at; else the current parent.
 * - `position.before` / `.after` a sibling of the same kind in that parent; neither: at the end.
 *   Both at once is refused, as is a position pointing at the item itself, at an item of the
 *   other kind (each kind has its own order, see order.ts) or outside the target parent.
 * - A collection cannot move into itself or its descendants (400); a move that changes neither
 *   the parent nor the order is a 409.
 * - The caller needs admin on the item, and, when the parent changes, create on the new parent.
 */
export function moveItem(tx: WriteTx, access: ContentAccess, item: TreeItem, input: MoveInput, now: string): TreeItem {
  const org = access.org.id;
  // The right first: someone who may not move it learns nothing from the rules of its input.
  const level = item.kind === 'space' ? access.space(item.row) : access.collection(item.row);
  requireLevel(level, 'admin', `moving ${describeItem(item)}`, `${describeItem(item)}`);
  const { before, after } = input.position ?? {};
  if (before && after) throw invalid('position: give before or after, not both');
  const field = before ? 'position.before' : 'position.after';
  const pointer = (before ?? after) ? resolvePointer(tx, access, (before ?? after)!, field) : undefined;
  if (pointer && pointer.kind !== item.kind)
    throw invalid(`${field}: a ${item.kind} is placed before or after another ${item.kind} (collections and spaces are ordered separately)`);
  if (pointer && pointer.row.id === item.row.id) throw invalid(`${field}: cannot place a ${item.kind} relative to itself`);

  let target: string | null;
  if (input.parent !== undefined) {
    target = input.parent;
    if (target !== null) {
      const parent = tx.get(Collections, target);
      if (!parent || parent.organization !== org || !access.collection(parent)) throw invalid(`parent: no collection ${target} in this organization`);
    }
    if (pointer && pointer.row.parent !== target) throw invalid(`${field}: ${describeItem(pointer)} is not in ${describeParent(target)}`);
  } else {
    target = pointer ? pointer.row.parent : item.row.parent;
  }

  if (item.kind === 'collection') {
    // Walk up from the target: meeting the item means the target is inside it.
    for (let c = target; c !== null; c = tx.get(Collections, c)?.parent ?? null) {
      if (c === item.row.id) throw invalid('parent: a collection cannot move into itself or one of its own collections');
    }
  }

  if (target !== item.row.parent) requireCreateIn(access, target, `moving ${describeItem(item)} into ${describeParent(target)}`);

  const current = siblings(tx, org, target, item.kind);
  const order = current.filter((i) => !(i.kind === item.kind && i.row.id === item.row.id));
  const at = pointer ? order.findIndex((i) => i.kind === pointer.kind && i.row.id === pointer.row.id) + (after ? 1 : 0) : order.length;

  const key = (i: TreeItem) => `${i.kind}:${i.row.id}`;
  const moved: TreeItem =
    item.kind === 'space'
      ? { kind: 'space', row: movedSpace(spaceRow(tx, item.row), target, now) }
      : { kind: 'collection', row: { ...item.row, parent: target, updatedAt: now } };
  order.splice(at, 0, moved);
  if (target === item.row.parent && order.map(key).join() === current.map(key).join()) {
    throw conflict(`nothing to change: ${describeItem(item)} is already at that place in ${describeParent(target)}`);
  }
  writeOrder(tx, order, moved);
  return moved;
}

/** The whole row of a moved space (the tree's item may be its summary entry). */
function movedSpace(row: SpaceRecord, target: string | null, now: string): SpaceRecord {
  return { ...row, parent: target, visibility: atRootVisibility(row, target), updatedAt: now };
}
