import type { Caller, Context } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { MemberRole } from '../kernel/roles.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { contentAccess, requireCreateIn, requireLevel, type ContentAccess } from '../tree/access.js';
import { moveItem, type MoveInput } from '../tree/move.js';
import { type SpaceEntry, collectionSubtree, endPosition, siblings, spacesIn, walk } from '../tree/order.js';
import { checkTransfer, requireTransferable } from '../tree/transfer.js';
import { dropGrantsOn } from '../tree/grants.js';
import { COLLECTION_TITLE_MAX, type CollectionRecord, type DefaultLevel } from './model.js';
import { Collections } from './tables.js';
import { Spaces } from '../spaces/tables.js';

export interface Seen<T> {
  row: T;
  level: MemberRole;
  access: ContentAccess;
}

/** A trimmed title of 1 to `max` characters, or a 400 naming the rule. */
export function cleanTitle(value: unknown, max: number): string {
  const title = String(value).trim();
  if (title.length < 1 || title.length > max) throw invalid(`title: must be 1 to ${max} characters`);
  return title;
}

/** Refuses any body field outside `accepted`: a field we would ignore is a silent surprise. */
export function onlyFields(body: object, accepted: readonly string[], where: string): void {
  for (const k of Object.keys(body)) {
    if (!accepted.includes(k)) throw invalid(`${k}: cannot be set with ${where} (accepted: ${accepted.join(', ')})`);
  }
}

/** A collection the caller can see, or a 404 that does not tell whether it exists. */
export function visibleCollection(tx: ReadTx, caller: Caller, id: string): Seen<CollectionRecord> {
  const what = `collection ${id}`;
  const row = tx.get(Collections, id);
  if (!row) throw notFound(`${what} not found`);
  const access = contentAccess(tx, row.organization, caller, what);
  const level = access.collection(row);
  if (!level) throw notFound(`${what} not found`);
  return { row, level, access };
}

/** The organization's collections the caller can see, depth first; only the top level unless `nested`. */
export function listCollections(tx: ReadTx, caller: Caller, organizationId: string, nested: boolean) {
  const access = contentAccess(tx, organizationId, caller);
  return walk(tx, organizationId)
    .filter(({ item, depth }) => item.kind === 'collection' && (nested || depth === 0))
    .map(({ item }) => ({ row: item.row as CollectionRecord, level: access.collection(item.row as CollectionRecord) }))
    .filter((x) => x.level);
}

/** The spaces directly in a collection, in order, that the caller can see. */
export function listSpacesOf(tx: ReadTx, caller: Caller, collectionId: string) {
  const { row, access } = visibleCollection(tx, caller, collectionId);
  return siblings(tx, row.organization, row.id, 'space')
    .map((i) => ({ row: i.row as SpaceEntry, level: access.space(i.row as SpaceEntry) }))
    .filter((x) => x.level);
}

export function createCollection(tx: WriteTx, ctx: Context, caller: Caller, organizationId: string, body: { title?: string; parent?: string }) {
  const access = contentAccess(tx, organizationId, caller);
  onlyFields(body, ['title', 'parent'], 'POST /orgs/{organizationId}/collections');
  const title = body.title === undefined ? 'Untitled' : cleanTitle(body.title, COLLECTION_TITLE_MAX);
  const parent = body.parent ?? null;
  if (parent !== null) {
    const p = tx.get(Collections, parent);
    if (!p || p.organization !== organizationId || !access.collection(p)) throw invalid(`parent: no collection ${parent} in this organization`);
  }
  requireCreateIn(access, parent, 'creating a collection');
  const now = ctx.clock.now().toISOString();
  const row = tx.put(Collections, {
    id: newId(),
    organization: organizationId,
    parent,
    title,
    defaultLevel: 'inherit',
    position: endPosition(tx, organizationId, parent, 'collection'),
    createdAt: now,
    updatedAt: now,
    createdBy: caller.userId,
  });
  return { row, level: access.collection(row) };
}

export function updateCollection(
  tx: WriteTx,
  ctx: Context,
  caller: Caller,
  id: string,
  body: { title?: string; description?: string; defaultLevel?: DefaultLevel },
) {
  const { row, level, access } = visibleCollection(tx, caller, id);
  // The right first: someone who may not change it learns nothing from the rules of its input.
  requireLevel(level, 'admin', `updating collection ${id}`, `collection ${id}`);
  const accepted = ['title', 'description', 'defaultLevel'];
  onlyFields(body, accepted, 'PATCH /collections/{collectionId}');
  if (!Object.keys(body).length) throw invalid(`body: give at least one of ${accepted.join(', ')}`);
  const next: CollectionRecord = { ...row, updatedAt: ctx.clock.now().toISOString() };
  if (body.title !== undefined) next.title = cleanTitle(body.title, COLLECTION_TITLE_MAX);
  if (body.description !== undefined) next.description = body.description;
  if (body.defaultLevel !== undefined) next.defaultLevel = body.defaultLevel;
  tx.put(Collections, next);
  return { row: next, level: access.renewed().collection(next) };
}

/**
 * Deletes a collection with everything inside: its collections are removed and its spaces are
 * deleted as a space delete does (restorable for 7 days, to the root since their collection is
 * gone), so nothing is orphaned and nothing is lost at once. The caller needs admin on the
 * collection and on every space and collection inside it. False when there was nothing to delete.
 */
export function deleteCollection(tx: WriteTx, ctx: Context, caller: Caller, id: string): boolean {
  let seen: Seen<CollectionRecord>;
  try {
    seen = visibleCollection(tx, caller, id);
  } catch (err) {
    if ((err as { kind?: string }).kind === 'not_found') return false;
    throw err;
  }
  const { row, access } = seen;
  const collections = collectionSubtree(tx, row);
  const spaces = spacesIn(tx, collections).filter((s) => !s.deletedAt);
  for (const c of collections) requireLevel(access.collection(c), 'admin', `deleting collection ${id}`, `collection ${c.id}${c.id === id ? '' : ' inside it'}`);
  for (const s of spaces) requireLevel(access.space(s), 'admin', `deleting collection ${id}`, `space ${s.id} inside it`);
  const now = ctx.clock.now().toISOString();
  for (const s of spaces) tx.put(Spaces, { ...s, deletedAt: now, updatedAt: now });
  for (const c of collections) tx.delete(Collections, c.id);
  return true;
}

export function moveCollection(tx: WriteTx, ctx: Context, caller: Caller, id: string, input: MoveInput) {
  const { row, access } = visibleCollection(tx, caller, id);
  const moved = moveItem(tx, access, { kind: 'collection', row }, input, ctx.clock.now().toISOString());
  return { row: moved.row as CollectionRecord, level: access.renewed().collection(moved.row as CollectionRecord) };
}

/**
 * Moves a collection, with every collection and space inside it (deleted spaces too, so a
 * restore finds them in their organization), to the root of another organization.
 */
export function transferCollection(tx: WriteTx, ctx: Context, caller: Caller, id: string, organization: string) {
  const { row, access } = visibleCollection(tx, caller, id);
  const target = checkTransfer(tx, caller, access, organization, `collection ${id}`);
  const collections = collectionSubtree(tx, row);
  const spaces = spacesIn(tx, collections);
  requireTransferable(
    tx,
    spaces.filter((s) => !s.deletedAt),
    organization,
    `collection ${id}`,
  );
  const now = ctx.clock.now().toISOString();
  const position = endPosition(tx, organization, null, 'collection');
  // Grants name people and teams of the organization they leave: they do not follow.
  for (const c of collections) dropGrantsOn(tx, c.organization, 'collection', c.id);
  for (const s of spaces) dropGrantsOn(tx, s.organization, 'space', s.id);
  for (const c of collections) {
    tx.put(Collections, c.id === id ? { ...c, organization, parent: null, position, updatedAt: now } : { ...c, organization });
  }
  for (const s of spaces) tx.put(Spaces, { ...s, organization });
  const moved = tx.get(Collections, id)!;
  return { row: moved, level: target.renewed().collection(moved) };
}
