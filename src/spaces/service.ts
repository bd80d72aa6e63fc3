import { cleanTitle, onlyFields, type Seen } from '../collections/service.js';
import type { DefaultLevel } from '../collections/model.js';
import type { Caller, Context } from '../kernel/context.js';
import { conflict, forbidden, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { MemberRole } from '../kernel/roles.js';
import { memberRowId } from '../organizations/model.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { contentAccess, requireCreateIn, requireLevel, type ContentAccess } from '../tree/access.js';
import { atRootVisibility } from '../tree/move.js';
import { type SpaceEntry, endPosition, walk } from '../tree/order.js';
import { SPACE_TITLE_MAX, VISIBILITIES, type MergeRules, type RevisionRecord, type SpaceRecord, type Visibility } from './model.js';
import { Collections } from '../collections/tables.js';
import { Members } from '../organizations/tables.js';
import { Revisions, Spaces } from './tables.js';

/**
 * A space the caller can see, or a 404 that does not tell whether it exists. A deleted space is
 * gone (404) except where `deleted` is asked for (restore, delete).
 */
export function visibleSpace(tx: ReadTx, caller: Caller, id: string, opts: { deleted?: boolean } = {}): Seen<SpaceRecord> {
  const what = `space ${id}`;
  const row = tx.get(Spaces, id);
  if (!row || (row.deletedAt && !opts.deleted)) throw notFound(`${what} not found`);
  const access = contentAccess(tx, row.organization, caller, what);
  const level = access.space(row);
  if (!level) throw notFound(`${what} not found`);
  return { row, level, access };
}

/**
 * For the content areas: the space, when the caller may edit its content. A locked space
 * refuses every content edit, whoever asks.
 */
export function requireContentEdit(tx: ReadTx, caller: Caller, id: string): Seen<SpaceRecord> {
  const seen = visibleSpace(tx, caller, id);
  requireLevel(seen.level, 'edit', `editing the content of space ${id}`, `space ${id}`);
  if (seen.row.editMode === 'locked')
    throw forbidden(`space ${id} is locked (editMode: locked): its content cannot be edited until an admin sets editMode to live`);
  return seen;
}

/** The organization's spaces the caller can see, in tree order. */
export function listSpaces(tx: ReadTx, caller: Caller, organizationId: string) {
  const access = contentAccess(tx, organizationId, caller);
  // One pass, no list between steps: a read of 10,000 spaces runs this twice (before and after
  // the page's rows are loaded).
  const out: { row: SpaceEntry; level: NonNullable<MemberRole> }[] = [];
  for (const { item } of walk(tx, organizationId)) {
    if (item.kind !== 'space') continue;
    const level = access.space(item.row);
    if (level) out.push({ row: item.row, level });
  }
  return out;
}

function checkIcon(icon: unknown): string {
  let ok = false;
  try {
    ok = typeof icon === 'string' && icon.length <= 2048 && ['http:', 'https:'].includes(new URL(icon).protocol);
  } catch {}
  if (!ok) throw invalid('icon: must be an http(s) URL of at most 2048 characters');
  return icon as string;
}

/** Merge rules may only name reviewers who are members of the space's organization. */
function checkMergeRules(tx: ReadTx, organization: string, rules: MergeRules): MergeRules {
  if (rules.type !== 'rules') return rules;
  rules.rules.forEach((rule, i) => {
    for (const user of rule.users ?? []) {
      const m = tx.get(Members, memberRowId(organization, user));
      if (!m || m.disabled) throw invalid(`mergeRules.rules[${i}].users: ${user} is not a member of this organization`);
    }
  });
  return rules;
}

function checkParent(tx: ReadTx, access: ContentAccess, parent: string | null): void {
  if (parent === null) return;
  const p = tx.get(Collections, parent);
  if (!p || p.organization !== access.org.id || !access.collection(p)) throw invalid(`parent: no collection ${parent} in this organization`);
}

/** Writes the initial, empty revision of a new space, in the space's own shard. */
function initialRevision(tx: WriteTx, space: string, now: string): RevisionRecord {
  const row: RevisionRecord = { id: newId(), space, parents: [], createdAt: now, type: 'edits' };
  tx.put(Revisions, row);
  return row;
}

export interface NewSpace {
  title?: string;
  emoji?: string;
  icon?: string;
  parent?: string;
  language?: string;
  editMode?: 'live' | 'locked';
  visibility?: Visibility;
  empty?: boolean;
  template?: unknown;
  computedSource?: unknown;
}

// `icon` and `visibility` are extensions of createSpace (0.146.0 has neither there): without
// them a space's icon or visibility could never be set, since PATCH does not take visibility.
const CREATE_FIELDS = ['title', 'emoji', 'icon', 'parent', 'language', 'editMode', 'visibility', 'empty'];

export function createSpace(tx: WriteTx, ctx: Context, caller: Caller, organizationId: string, body: NewSpace) {
  const access = contentAccess(tx, organizationId, caller);
  // Refused rather than ignored: a caller asking for a template would get an empty space.
  if (body.template !== undefined) throw invalid('template: space templates are not available on this server yet');
  if (body.computedSource !== undefined) throw invalid('computedSource: computed content is not available on this server yet');
  onlyFields(body, CREATE_FIELDS, 'POST /orgs/{organizationId}/spaces');
  const title = body.title === undefined ? 'Untitled' : cleanTitle(body.title, SPACE_TITLE_MAX);
  if (body.emoji && body.icon !== undefined) throw invalid('icon: give emoji or icon, not both');
  const parent = body.parent ?? null;
  const visibility = body.visibility ?? 'private';
  if (!VISIBILITIES.includes(visibility)) throw invalid(`visibility: must be one of ${VISIBILITIES.join(', ')}`);
  if (visibility === 'in-collection' && parent === null) throw invalid('visibility: in-collection is only for spaces in a collection (give parent)');
  checkParent(tx, access, parent);
  requireCreateIn(access, parent, 'creating a space');
  const now = ctx.clock.now().toISOString();
  const id = newId();
  const row = tx.put(Spaces, {
    id,
    organization: organizationId,
    parent,
    title,
    ...(body.emoji ? { emoji: body.emoji } : {}),
    ...(body.icon !== undefined ? { icon: checkIcon(body.icon) } : {}),
    visibility,
    editMode: body.editMode ?? 'live',
    mergeRules: { type: 'inherit' },
    defaultLevel: 'inherit',
    ...(body.language ? { language: body.language } : {}),
    revision: initialRevision(tx, id, now).id,
    position: endPosition(tx, organizationId, parent, 'space'),
    createdAt: now,
    updatedAt: now,
    createdBy: caller.userId,
  });
  return { row, level: access.space(row) };
}

export interface SpacePatch {
  editMode?: 'live' | 'locked';
  title?: string;
  defaultLevel?: DefaultLevel;
  language?: string;
  mergeRules?: MergeRules;
  emoji?: string | null;
  icon?: string | null;
}

// API.md: only these are writable with PATCH (`icon` is the contract's alternative to `emoji`).
const PATCH_FIELDS = ['editMode', 'title', 'defaultLevel', 'language', 'mergeRules', 'emoji', 'icon'];

/** Updates a space's settings; needs admin on it (the title, the levels and the lock are its management). */
export function updateSpace(tx: WriteTx, ctx: Context, caller: Caller, id: string, body: SpacePatch) {
  const { row, level, access } = visibleSpace(tx, caller, id);
  onlyFields(body, PATCH_FIELDS, 'PATCH /spaces/{spaceId}');
  if (!Object.keys(body).length) throw invalid(`body: give at least one of ${PATCH_FIELDS.join(', ')}`);
  requireLevel(level, 'admin', `updating space ${id}`, `space ${id}`);
  const next: SpaceRecord = { ...row, updatedAt: ctx.clock.now().toISOString() };
  if (body.title !== undefined) next.title = cleanTitle(body.title, SPACE_TITLE_MAX);
  if (body.editMode !== undefined) next.editMode = body.editMode;
  if (body.defaultLevel !== undefined) next.defaultLevel = body.defaultLevel;
  if (body.language !== undefined) next.language = body.language;
  if (body.mergeRules !== undefined) next.mergeRules = checkMergeRules(tx, row.organization, body.mergeRules);
  // Emoji and icon are alternatives: setting one clears the other; null clears it.
  if (body.emoji !== undefined || body.icon !== undefined) {
    delete next.emoji;
    delete next.icon;
    if (body.emoji) next.emoji = body.emoji;
    if (body.icon) next.icon = checkIcon(body.icon);
  }
  tx.put(Spaces, next);
  return { row: next, level: access.renewed().space(next) };
}

/** Sets `deletedAt`; false when there was nothing (visible) to delete. Needs admin on the space. */
export function deleteSpace(tx: WriteTx, ctx: Context, caller: Caller, id: string): boolean {
  let seen: Seen<SpaceRecord>;
  try {
    seen = visibleSpace(tx, caller, id);
  } catch (err) {
    if ((err as { kind?: string }).kind === 'not_found') return false;
    throw err;
  }
  requireLevel(seen.level, 'admin', `deleting space ${id}`, `space ${id}`);
  const now = ctx.clock.now().toISOString();
  tx.put(Spaces, { ...seen.row, deletedAt: now, updatedAt: now });
  return true;
}

/**
 * Brings a deleted space back (the caller has purged expired ones before), at the end of its
 * collection, or at the root when that collection was deleted meanwhile.
 */
export function restoreSpace(tx: WriteTx, ctx: Context, caller: Caller, id: string) {
  const { row, access } = visibleSpace(tx, caller, id, { deleted: true });
  // The right first (a deleted parent counts as the root, as for the restored space below).
  requireLevel(access.space(row), 'admin', `restoring space ${id}`, `space ${id}`);
  if (!row.deletedAt) throw conflict(`nothing to change: space ${id} is not deleted`);
  const collection = row.parent === null ? undefined : tx.get(Collections, row.parent);
  const parent = collection && collection.organization === row.organization ? row.parent : null;
  const back: SpaceRecord = { ...row, parent, visibility: atRootVisibility(row, parent), updatedAt: ctx.clock.now().toISOString() };
  delete back.deletedAt;
  requireLevel(access.space(back), 'admin', `restoring space ${id}`, `space ${id}`);
  tx.put(Spaces, { ...back, position: endPosition(tx, row.organization, parent, 'space') });
  const restored = tx.get(Spaces, id)!;
  return { row: restored, level: access.renewed().space(restored) };
}
