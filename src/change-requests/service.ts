import { requireCluster } from '../conversations/service.js';
import type { Caller, Context } from '../kernel/context.js';
import { conflict, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { SpaceRecord } from '../spaces/model.js';
import { requireContentEdit, visibleSpace } from '../spaces/service.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { requireLevel } from '../tree/access.js';
import { commitRevision, readRevision } from '../content/revisions.js';
import { requireMergeRules } from './merge-rules.js';
import { SUBJECT_MAX, type ChangeRequestRecord } from './model.js';

// The base of change requests that content authoring needs: create, read, list, and a merge
// that only fast-forwards. A three-way merge (the space moved since the change request started)
// answers 409 until the change-request area replaces `mergeChangeRequest` below.

export function crsOf(tx: ReadTx, space: string): ChangeRequestRecord[] {
  return tx.find<ChangeRequestRecord>('changeRequests', 'space', space).sort((a, b) => b.number - a.number);
}

/** A change request of the space by id or by number, or 404. */
export function findChangeRequest(tx: ReadTx, space: string, idOrNumber: string): ChangeRequestRecord {
  const byId = tx.get<ChangeRequestRecord>('changeRequests', idOrNumber);
  if (byId && byId.space === space) return byId;
  if (/^\d+$/.test(idOrNumber)) {
    const n = Number(idOrNumber);
    const hit = crsOf(tx, space).find((c) => c.number === n);
    if (hit) return hit;
  }
  throw notFound(`change request ${idOrNumber} not found in space ${space}`);
}

export function readChangeRequest(tx: ReadTx, caller: Caller, spaceId: string, idOrNumber: string) {
  const seen = visibleSpace(tx, caller, spaceId);
  return { space: seen.row, cr: findChangeRequest(tx, spaceId, idOrNumber) };
}

/** Opens a change request on the space's current revision; needs `edit` on an unlocked space. */
export function createChangeRequest(tx: WriteTx, ctx: Context, caller: Caller, spaceId: string, body: { subject?: string; conversationsIssuesCluster?: string }) {
  const { row: space } = requireContentEdit(tx, caller, spaceId);
  const cluster = body.conversationsIssuesCluster;
  if (cluster !== undefined) requireCluster(tx, space.organization, cluster);
  const subject = (body.subject ?? '').trim();
  if (subject.length > SUBJECT_MAX) throw invalid(`subject: must be at most ${SUBJECT_MAX} characters`);
  const now = ctx.clock.now().toISOString();
  const number = crsOf(tx, spaceId).reduce((n, c) => Math.max(n, c.number), 0) + 1;
  const cr = tx.put<ChangeRequestRecord>('changeRequests', {
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
    ...(cluster !== undefined ? { conversationsIssuesCluster: cluster } : {}),
  });
  return { space, cr };
}

/** A change request that may still receive content (not merged, not archived). */
export function requireWritable(cr: ChangeRequestRecord): void {
  if (cr.status === 'merged') throw conflict(`change request ${cr.number} is merged: its content can no longer change`);
  if (cr.status === 'archived') throw conflict(`change request ${cr.number} is archived: set its status to open to edit it`);
}

/**
 * Merges by fast-forward only: when the space is still at the change request's base, the
 * space takes a merge revision with the change request's content. Needs `review` (merge) on an
 * unlocked space.
 */
export function mergeChangeRequest(tx: WriteTx, ctx: Context, caller: Caller, spaceId: string, idOrNumber: string) {
  const seen = requireContentEdit(tx, caller, spaceId);
  requireLevel(seen.level, 'review', `merging change requests of space ${spaceId}`, `space ${spaceId}`);
  const cr = findChangeRequest(tx, spaceId, idOrNumber);
  requireWritable(cr);
  requireMergeRules(tx, seen.row, cr, caller);
  const space = seen.row;
  if (space.revision !== cr.revisionInitial) {
    throw conflict(`the space changed since change request ${cr.number} started; three-way merge is not available yet`);
  }
  const theirs = readRevision(tx, spaceId, cr.revision);
  const now = ctx.clock.now().toISOString();
  const merged = commitRevision(tx, ctx, spaceId, [space.revision, cr.revision], {
    root: theirs.root ?? [],
    files: theirs.files ?? [],
    type: 'merge',
    mergedFrom: cr.id,
    message: cr.subject || `Change request #${cr.number}`,
  });
  tx.put<SpaceRecord>('spaces', { ...space, revision: merged.id, updatedAt: now });
  const done = tx.put<ChangeRequestRecord>('changeRequests', { ...cr, status: 'merged', revisionMerged: merged.id, mergedBy: caller.userId, mergedAt: now, updatedAt: now });
  return { cr: done, revision: merged.id };
}
