import { requireCluster } from '../conversations/service.js';
import type { Caller } from '../kernel/context.js';
import { contentAccess } from '../tree/access.js';
import { listSpaces, visibleSpace } from '../spaces/service.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { ReadTx } from '../store/port.js';
import type { ChangeRequestRecord, ChangeRequestStatus } from './model.js';
import { pendingRequests } from './reviews.js';
import { crsOf } from './lookup.js';
import { Revisions } from '../spaces/tables.js';
import { spaceRow } from '../tree/order.js';

// The filters of the change-request lists (space and organization): `status` (default open),
// `creator`, `contributor`, `requestedReviewer` (user ids) and `conversationsIssuesCluster`.
// All given filters must match.

export interface ChangeRequestFilters {
  status?: ChangeRequestStatus;
  creator?: string;
  contributor?: string;
  requestedReviewer?: string;
  conversationsIssuesCluster?: string;
}

/** Users who authored a revision in the change request (content batches, templates applied there). */
export function contributorsOf(tx: ReadTx, cr: ChangeRequestRecord): Map<string, { count: number; updatedAt: string }> {
  const out = new Map<string, { count: number; updatedAt: string }>();
  for (const rev of tx.find(Revisions, 'changeRequest', cr.id)) {
    if (!rev.author || rev.space !== cr.space) continue;
    const seen = out.get(rev.author);
    out.set(rev.author, { count: (seen?.count ?? 0) + 1, updatedAt: seen && seen.updatedAt > rev.createdAt ? seen.updatedAt : rev.createdAt });
  }
  return out;
}

function matcher(tx: ReadTx, q: ChangeRequestFilters) {
  const status = q.status ?? 'open';
  return (cr: ChangeRequestRecord) =>
    cr.status === status &&
    (q.creator === undefined || cr.createdBy === q.creator) &&
    (q.conversationsIssuesCluster === undefined || cr.conversationsIssuesCluster === q.conversationsIssuesCluster) &&
    (q.contributor === undefined || contributorsOf(tx, cr).has(q.contributor)) &&
    // Requested and not reviewed since: the reviewer's to-do list.
    (q.requestedReviewer === undefined || pendingRequests(tx, cr).some((r) => r.user === q.requestedReviewer));
}

/** The space's change requests matching the filters, newest number first. */
export function listForSpace(tx: ReadTx, caller: Caller, spaceId: string, q: ChangeRequestFilters) {
  const { row: space } = visibleSpace(tx, caller, spaceId);
  if (q.conversationsIssuesCluster !== undefined) requireCluster(tx, space.organization, q.conversationsIssuesCluster);
  return crsOf(tx, spaceId).filter(matcher(tx, q));
}

/**
 * The organization's change requests matching the filters, over the spaces the caller can see
 * (404 for non-members), newest first.
 */
export function listForOrganization(
  tx: ReadTx,
  caller: Caller,
  organizationId: string,
  q: ChangeRequestFilters,
): { cr: ChangeRequestRecord; space: SpaceRecord }[] {
  contentAccess(tx, organizationId, caller, `organization ${organizationId}`);
  if (q.conversationsIssuesCluster !== undefined) requireCluster(tx, organizationId, q.conversationsIssuesCluster);
  const match = matcher(tx, q);
  return listSpaces(tx, caller, organizationId)
    .flatMap(({ row: entry }) => {
      const crs = crsOf(tx, entry.id).filter(match);
      // The whole row only of the spaces with a change request listed.
      const space = crs.length ? spaceRow(tx, entry) : undefined;
      return crs.map((cr) => ({ cr, space: space! }));
    })
    .sort((a, b) => b.cr.createdAt.localeCompare(a.cr.createdAt) || b.cr.id.localeCompare(a.cr.id));
}
