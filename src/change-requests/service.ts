import { requireCluster } from '../conversations/service.js';
import type { Caller, Context } from '../kernel/context.js';
import { conflict, invalid } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { requireContentEdit, visibleSpace } from '../spaces/service.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { requireLevel } from '../tree/access.js';
import { commitRevision } from '../content/revisions.js';
import { mergeRevisions, type MergeConflict } from './merge-revisions.js';
import { requireMergeRules } from './merge-rules.js';
import { crsOf, findChangeRequest } from './lookup.js';
import { baseOf, SUBJECT_MAX, type ChangeRequestRecord, type ChangeRequestStatus } from './model.js';
import { ChangeRequests } from './tables.js';
import { Spaces } from '../spaces/tables.js';

// Change requests: create, read, list, change (PATCH), merge into the space and update from it
// (both three-way, merge-revisions.ts).

export function readChangeRequest(tx: ReadTx, caller: Caller, spaceId: string, idOrNumber: string) {
  const seen = visibleSpace(tx, caller, spaceId);
  return { space: seen.row, cr: findChangeRequest(tx, spaceId, idOrNumber) };
}

/** Opens a change request on the space's current revision; needs `edit` on an unlocked space. */
export interface CreateInput {
  subject?: string;
  /** A Document, checked by the caller against the contract's. */
  description?: unknown;
  template?: { id: string; params?: { contentRefs?: Record<string, unknown> } };
  conversationsIssuesCluster?: string;
}

export function createChangeRequest(tx: WriteTx, ctx: Context, caller: Caller, spaceId: string, body: CreateInput) {
  const { row: space } = requireContentEdit(tx, caller, spaceId);
  const cluster = body.conversationsIssuesCluster;
  if (cluster !== undefined) requireCluster(tx, space.organization, cluster);
  const subject = (body.subject ?? '').trim();
  if (subject.length > SUBJECT_MAX) throw invalid(`subject: must be at most ${SUBJECT_MAX} characters`);
  const now = ctx.clock.now().toISOString();
  const number = crsOf(tx, spaceId).reduce((n, c) => Math.max(n, c.number), 0) + 1;
  const cr = tx.put(ChangeRequests, {
    id: newId(),
    space: spaceId,
    number,
    status: 'open',
    subject,
    createdBy: caller.userId,
    createdAt: now,
    updatedAt: now,
    revision: space.revision,
    revisionInitial: space.revision,
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(cluster !== undefined ? { conversationsIssuesCluster: cluster } : {}),
  });
  return { space, cr };
}

/** 409 unless the change request may be merged: open (a draft is not ready; archived and merged are closed). */
export function requireMergeable(cr: ChangeRequestRecord): void {
  if (cr.status === 'merged') throw conflict(`change request ${cr.number} is already merged`);
  if (cr.status === 'archived') throw conflict(`change request ${cr.number} is archived: set its status to open to merge it`);
  if (cr.status === 'draft') throw conflict(`change request ${cr.number} is a draft: set its status to open to merge it`);
}

/** `{result: conflicts}` answers: the revision is the one left as it was, with what clashed. */
export interface Conflicted {
  result: 'conflicts';
  revision: string;
  conflicts: MergeConflict[];
}

/**
 * Merges the change request into the space by a three-way merge from its base (its last update
 * from the space, else where it started): a new space revision with parents [space's, change
 * request's]. Overlapping changes change nothing and answer the conflicts. Needs `review` on an
 * unlocked space and an open change request.
 */
export function mergeChangeRequest(
  tx: WriteTx,
  ctx: Context,
  caller: Caller,
  spaceId: string,
  idOrNumber: string,
): { result: 'merge'; revision: string; cr: ChangeRequestRecord } | Conflicted {
  const seen = requireContentEdit(tx, caller, spaceId);
  requireLevel(seen.level, 'review', `merging change requests of space ${spaceId}`, `space ${spaceId}`);
  const cr = findChangeRequest(tx, spaceId, idOrNumber);
  requireMergeable(cr);
  requireMergeRules(tx, seen.row, cr, caller);
  const space = seen.row;
  const now = ctx.clock.now().toISOString();
  const out = mergeRevisions(tx, now, spaceId, baseOf(cr), space.revision, cr.revision);
  if ('conflicts' in out) return { result: 'conflicts', revision: space.revision, conflicts: out.conflicts };
  const merged = commitRevision(tx, ctx, spaceId, [space.revision, cr.revision], {
    ...out.content,
    type: 'merge',
    mergedFrom: cr.id,
    message: cr.subject || `Change request #${cr.number}`,
  });
  tx.put(Spaces, { ...space, revision: merged.id, updatedAt: now });
  const done = tx.put(ChangeRequests, { ...cr, status: 'merged', revisionMerged: merged.id, mergedBy: caller.userId, mergedAt: now, updatedAt: now });
  return { result: 'merge', revision: merged.id, cr: done };
}

/**
 * Brings the space's current content into the change request by the same three-way merge: a
 * new change-request revision (type `update`) with parents [change request's, space's], whose
 * base is then the space's revision (`revisionMergedAncestor`). Already up to date: nothing is
 * written and the answer is the change request's revision. Needs `edit` on an unlocked space; a
 * merged change request is final (409).
 */
export function updateChangeRequest(
  tx: WriteTx,
  ctx: Context,
  caller: Caller,
  spaceId: string,
  idOrNumber: string,
): { result: 'update'; revision: string; cr: ChangeRequestRecord } | Conflicted {
  const { row: space } = requireContentEdit(tx, caller, spaceId);
  const cr = findChangeRequest(tx, spaceId, idOrNumber);
  if (cr.status === 'merged') throw conflict(`change request ${cr.number} is merged: it can no longer be updated`);
  if (baseOf(cr) === space.revision) return { result: 'update', revision: cr.revision, cr };
  const now = ctx.clock.now().toISOString();
  const out = mergeRevisions(tx, now, spaceId, baseOf(cr), cr.revision, space.revision);
  if ('conflicts' in out) return { result: 'conflicts', revision: cr.revision, conflicts: out.conflicts };
  const rev = commitRevision(tx, ctx, spaceId, [cr.revision, space.revision], {
    ...out.content,
    type: 'update',
    message: `Update from space revision ${space.revision}`,
  });
  const done = tx.put(ChangeRequests, { ...cr, revision: rev.id, revisionMergedAncestor: space.revision, updatedAt: now });
  return { result: 'update', revision: rev.id, cr: done };
}

export interface ChangeRequestPatch {
  subject?: string;
  description?: unknown;
  status?: Exclude<ChangeRequestStatus, 'merged'>;
}

/**
 * PATCH: subject, description, status. The creator may change their change request whatever
 * their level on the space; anyone else needs `edit`. Statuses move freely among draft, open and
 * archived; `merged` only comes from a merge and is final (409). A locked space does not stop
 * it: the lock guards the space's content, and none changes here.
 */
export function patchChangeRequest(tx: WriteTx, ctx: Context, caller: Caller, spaceId: string, idOrNumber: string, body: ChangeRequestPatch) {
  const { row: space, level } = visibleSpace(tx, caller, spaceId);
  const cr = findChangeRequest(tx, spaceId, idOrNumber);
  if (cr.createdBy !== caller.userId) requireLevel(level, 'edit', `changing change request ${cr.number}, which you did not create,`, `space ${spaceId}`);
  if (body.subject === undefined && body.description === undefined && body.status === undefined) {
    throw invalid('body: give at least one of subject, description, status');
  }
  const next: ChangeRequestRecord = { ...cr };
  if (body.status !== undefined && body.status !== cr.status) {
    if (cr.status === 'merged') throw conflict(`status: change request ${cr.number} is merged, which is final (it cannot become ${body.status})`);
    next.status = body.status;
  }
  if (body.subject !== undefined) {
    const subject = body.subject.trim();
    if (subject.length > SUBJECT_MAX) throw invalid(`subject: must be at most ${SUBJECT_MAX} characters`);
    next.subject = subject;
  }
  if (body.description !== undefined) next.description = body.description;
  const changed = next.status !== cr.status || next.subject !== cr.subject || JSON.stringify(next.description) !== JSON.stringify(cr.description);
  // The same values again: nothing to write (PATCH is idempotent), updatedAt stays.
  const saved = changed ? tx.put(ChangeRequests, { ...next, updatedAt: ctx.clock.now().toISOString() }) : cr;
  return { space, cr: saved };
}
