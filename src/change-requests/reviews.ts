import { documentToMarkdown } from '../documents/markdown.js';
import type { Caller, Context } from '../kernel/context.js';
import { conflict, forbidden, invalid } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { atLeast } from '../kernel/roles.js';
import { findMember } from '../organizations/service.js';
import { visibleSpace } from '../spaces/service.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { contentAccess, requireLevel } from '../tree/access.js';
import { SUBJECT_MAX, type ChangeRequestRecord } from './model.js';
import { findChangeRequest } from './lookup.js';
import { table } from '../store/port.js';
import { ChangeRequests } from './tables.js';
import { Users } from '../users/tables.js';

/** Reviews and review requests of change requests, kept with their space. */
export const ChangeRequestReviews = table<ReviewRecord, 'space' | 'changeRequest'>('changeRequestReviews');
export const ChangeRequestReviewers = table<ReviewRequestRecord, 'space' | 'changeRequest' | 'user'>('changeRequestReviewers');

// Reviews of a change request and the requests for them (docs/manual/reviews.md). Both live in the space's shard, next to the change request they are about.
//
// A review is made against the change request's revision at that moment. It is *outdated* (no
// longer counts for merge rules) once it is superseded: the change request's content changed
// since (a new revision), the same reviewer reviewed again, or their review was requested again.

export type ReviewStatus = 'approved' | 'changes-requested';

export interface ReviewRecord {
  id: string;
  space: string;
  changeRequest: string;
  reviewer: string;
  status: ReviewStatus;
  /** The change request's revision the review was made against. */
  revision: string;
  /** Who had asked this reviewer for a review, when someone had. */
  requestedBy?: string;
  /** The review's comment, as markdown (absent: no comment). */
  comment?: string;
  createdAt: string;
}

export interface ReviewRequestRecord {
  id: string;
  space: string;
  changeRequest: string;
  user: string;
  requestedBy: string;
  /** The change request's revision when the request was made. */
  revision: string;
  createdAt: string;
}

/** Fields the change request may carry that the base model does not declare yet. */

/** Reviews of a change request, newest first (ties by id, so pages are stable). */
export function reviewsOf(tx: ReadTx, cr: ChangeRequestRecord): ReviewRecord[] {
  return tx.find(ChangeRequestReviews, 'changeRequest', cr.id).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

export function requestsOf(tx: ReadTx, cr: ChangeRequestRecord): ReviewRequestRecord[] {
  return tx.find(ChangeRequestReviewers, 'changeRequest', cr.id).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** Whether a review no longer stands (see the top of this file). */
export function isOutdated(review: ReviewRecord, cr: ChangeRequestRecord, reviews: readonly ReviewRecord[], requests: readonly ReviewRequestRecord[]): boolean {
  if (review.revision !== cr.revision) return true;
  const later = (at: string, id: string) => at > review.createdAt || (at === review.createdAt && id > review.id);
  if (reviews.some((r) => r.reviewer === review.reviewer && r.id !== review.id && later(r.createdAt, r.id))) return true;
  return requests.some((q) => q.user === review.reviewer && q.createdAt > review.createdAt);
}

/** The reviews that stand: one at most per reviewer, on the current revision. */
export function currentReviews(tx: ReadTx, cr: ChangeRequestRecord): ReviewRecord[] {
  const reviews = reviewsOf(tx, cr);
  const requests = requestsOf(tx, cr);
  return reviews.filter((r) => !isOutdated(r, cr, reviews, requests));
}

/** Requested reviewers who have not reviewed since they were (last) asked. */
export function pendingRequests(tx: ReadTx, cr: ChangeRequestRecord): ReviewRequestRecord[] {
  const reviews = reviewsOf(tx, cr);
  return requestsOf(tx, cr).filter((q) => !reviews.some((r) => r.reviewer === q.user && r.createdAt >= q.createdAt));
}

/** Reviews and review requests are for change requests still in progress. */
function requireInProgress(cr: ChangeRequestRecord, action: string): void {
  if (cr.status === 'merged' || cr.status === 'archived')
    throw conflict(`change request ${cr.number} is ${cr.status}: ${action} is only possible while it is open or a draft`);
}

/**
 * Submits a review: needs the `review` level on the space; the change request must be open (a
 * draft is not ready for review), and its creator cannot review it (a review is a second pair of
 * eyes: an author's approval would satisfy the merge rules on their own word).
 */
export function submitReview(tx: WriteTx, ctx: Context, caller: Caller, spaceId: string, crId: string, body: { status: ReviewStatus; comment?: unknown }) {
  const seen = visibleSpace(tx, caller, spaceId);
  const cr = findChangeRequest(tx, spaceId, crId);
  requireLevel(seen.level, 'review', `reviewing change requests of space ${spaceId}`, `space ${spaceId}`);
  requireInProgress(cr, 'reviewing');
  if (cr.status === 'draft') throw conflict(`change request ${cr.number} is a draft: set its status to open before reviewing it`);
  if (cr.createdBy === caller.userId) throw forbidden(`you created change request ${cr.number}: its creator cannot review it`);
  const comment = commentMarkdown(body.comment);
  const request = requestsOf(tx, cr)
    .filter((q) => q.user === caller.userId)
    .pop();
  const review = tx.put(ChangeRequestReviews, {
    id: newId(),
    space: spaceId,
    changeRequest: cr.id,
    reviewer: caller.userId,
    status: body.status,
    revision: cr.revision,
    ...(request ? { requestedBy: request.requestedBy } : {}),
    ...(comment ? { comment } : {}),
    createdAt: ctx.clock.now().toISOString(),
  });
  return { space: seen.row, cr, review };
}

/** A Document (markdown, JSON document or empty) as markdown; '' for none. */
function commentMarkdown(doc: unknown): string {
  if (!doc || typeof doc !== 'object') return '';
  const d = doc as { markdown?: string; document?: { nodes?: unknown[] } };
  if (typeof d.markdown === 'string') return d.markdown.trim();
  if (d.document) return documentToMarkdown(d.document).trim();
  return '';
}

/**
 * Asks users to review: needs the `edit` level on the space (the people who write change
 * requests ask for reviews). Each user must be a member of the organization who can review the
 * space (`review` level) and not the change request's creator; otherwise a 400 naming the entry.
 * Asking someone again renews the request, which supersedes their earlier review. `subject` and
 * `description`, when given, update the change request too.
 */
export function requestReviewers(
  tx: WriteTx,
  ctx: Context,
  caller: Caller,
  spaceId: string,
  crId: string,
  body: { users: string[]; subject?: string; description?: { nodes?: unknown[] } },
) {
  const seen = visibleSpace(tx, caller, spaceId);
  const cr = findChangeRequest(tx, spaceId, crId);
  requireLevel(seen.level, 'edit', `requesting reviews on change requests of space ${spaceId}`, `space ${spaceId}`);
  requireInProgress(cr, 'requesting reviews');
  const users = [...new Set(body.users)];
  if (users.length === 0) throw invalid('users: must name at least one user');
  users.forEach((u) => checkReviewer(tx, seen.row, cr, u, `users[${body.users.indexOf(u)}]`));
  const now = ctx.clock.now().toISOString();
  let next: ChangeRequestRecord = cr;
  if (body.subject !== undefined) {
    const subject = body.subject.trim();
    if (subject.length > SUBJECT_MAX) throw invalid(`subject: must be at most ${SUBJECT_MAX} characters`);
    next = { ...next, subject };
  }
  if (body.description !== undefined) next = { ...next, description: body.description };
  if (next !== cr) tx.put(ChangeRequests, { ...next, updatedAt: now });
  const existing = requestsOf(tx, cr);
  const sent = users.map((user) =>
    tx.put(ChangeRequestReviewers, {
      id: existing.find((q) => q.user === user)?.id ?? newId(),
      space: spaceId,
      changeRequest: cr.id,
      user,
      requestedBy: caller.userId,
      revision: cr.revision,
      createdAt: now,
    }),
  );
  return { space: seen.row, cr: next, sent };
}

function checkReviewer(tx: ReadTx, space: SpaceRecord, cr: ChangeRequestRecord, user: string, where: string): void {
  if (!tx.get(Users, user) || !findMember(tx, space.organization, user)) throw invalid(`${where}: ${user} is not a member of this organization`);
  if (user === cr.createdBy) throw invalid(`${where}: ${user} created change request ${cr.number} and cannot review it`);
  const level = contentAccess(tx, space.organization, { userId: user }).space(space);
  if (!atLeast(level, 'review')) {
    throw invalid(`${where}: ${user} cannot review space ${space.id} (needs the review level, has ${level ?? 'none'})`);
  }
}
