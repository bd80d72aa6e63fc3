import { ensureDownloadSecret } from '../content/downloads.js';
import { readRevision } from '../content/revisions.js';
import { notFound } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { purgeIfExpired } from '../space-expiry.js';
import { visibleSpace } from '../spaces/service.js';
import { requireLevel } from '../tree/access.js';
import type { ReadTx } from '../store/port.js';
import { changeRequestChanges, revisionChanges } from './changes.js';
import { contributorsOf, listForOrganization } from './filters.js';
import { presentChangeRequest, user } from './present.js';
import { presentReview, presentReviewRequest, reviewUrl } from './review-present.js';
import { isOutdated, requestReviewers, requestsOf, reviewsOf, submitReview, type ReviewRecord, ChangeRequestReviewers } from './reviews.js';
import { readChangeRequest } from './service.js';
import type { ChangeRequestRecord } from './model.js';
import { ChangeRequests } from './tables.js';

// The change-request area's review side: semantic changes, reviews, review requests,
// contributors, and the organization-wide list (docs/manual/reviews.md).

/** Each review with whether it still stands, newest first. */
function reviewsWithState(tx: ReadTx, cr: ChangeRequestRecord): { review: ReviewRecord; outdated: boolean }[] {
  const reviews = reviewsOf(tx, cr);
  const requests = requestsOf(tx, cr);
  return reviews.map((review) => ({ review, outdated: isOutdated(review, cr, reviews, requests) }));
}

export const getChangeRequestChanges = defineOperation('getChangeRequestChanges', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => {
    const { space, cr } = readChangeRequest(tx, caller, path.spaceId, path.changeRequestId);
    const body = changeRequestChanges(ctx, tx, space, cr, query.limit);
    // The changes of a merged change request are those its merge revision brought in.
    return { status: 200, body: { ...(cr.status === 'merged' ? { mergedFrom: presentChangeRequest(ctx, tx, cr, space.organization) } : {}), ...body } };
  });
});

/**
 * GET /spaces/{spaceId}/revisions/{revisionId}/changes: what a revision brought in against its
 * parent (src/change-requests/changes.ts `revisionChanges`); a merge revision names the change
 * request it merged (`mergedFrom`), as the change request's own changes do.
 */
export const getRevisionSemanticChanges = defineOperation('getRevisionSemanticChanges', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => {
    const { row: space } = visibleSpace(tx, caller, path.spaceId);
    const rev = readRevision(tx, space.id, path.revisionId);
    const body = revisionChanges(ctx, tx, space, rev, query.limit);
    const merged = rev.mergedFrom ? tx.get(ChangeRequests, rev.mergedFrom) : undefined;
    return { status: 200, body: { ...(merged ? { mergedFrom: presentChangeRequest(ctx, tx, merged, space.organization) } : {}), ...body } };
  });
});

export const getReviewsByChangeRequestId = defineOperation('getReviewsByChangeRequestId', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const list = await ctx.store.read((tx) => {
    const { cr } = readChangeRequest(tx, caller, path.spaceId, path.changeRequestId);
    return reviewsWithState(tx, cr).filter((r) => query.outdated === undefined || r.outdated === query.outdated);
  });
  const page = paginate(list, query);
  const items = await Promise.all(page.items.map((r) => ctx.store.read((tx) => presentReview(ctx, tx, r.review, r.outdated, query.format))));
  return { status: 200, body: { ...page, items } };
});

export const getChangeRequestReviewById = defineOperation('getChangeRequestReviewById', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const found = await ctx.store.read((tx) => {
    const { cr } = readChangeRequest(tx, caller, path.spaceId, path.changeRequestId);
    const hit = reviewsWithState(tx, cr).find((r) => r.review.id === path.reviewId);
    if (!hit) throw notFound(`review ${path.reviewId} not found in change request ${cr.number}`);
    return hit;
  });
  return { status: 200, body: await ctx.store.read((tx) => presentReview(ctx, tx, found.review, found.outdated, query.format)) };
});

export const submitChangeRequestReview = defineOperation('submitChangeRequestReview', async ({ ctx, caller, path, body }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const { review } = await ctx.store.write((tx) => submitReview(tx, ctx, caller, path.spaceId, path.changeRequestId, body));
  return { status: 201, headers: { Location: reviewUrl(ctx, review) }, body: await ctx.store.read((tx) => presentReview(ctx, tx, review, false)) };
});

export const requestReviewersForChangeRequest = defineOperation('requestReviewersForChangeRequest', async ({ ctx, caller, path, body }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const { sent } = await ctx.store.write((tx) => requestReviewers(tx, ctx, caller, path.spaceId, path.changeRequestId, body));
  return { status: 200, body: { users: await ctx.store.read((tx) => sent.map((q) => presentReviewRequest(ctx, tx, q))) } };
});

export const getRequestedReviewersByChangeRequestId = defineOperation('getRequestedReviewersByChangeRequestId', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  return ctx.store.read((tx) => {
    const { cr } = readChangeRequest(tx, caller, path.spaceId, path.changeRequestId);
    return { status: 200, body: paginate(requestsOf(tx, cr), query, (q) => presentReviewRequest(ctx, tx, q)) };
  });
});

/** Withdraws a review request: the requester's side, so `edit` on the space, like requesting. */
export const removeRequestedReviewerFromChangeRequest = defineOperation('removeRequestedReviewerFromChangeRequest', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const removed = await ctx.store.write((tx) => {
    const { cr } = readChangeRequest(tx, caller, path.spaceId, path.changeRequestId);
    requireLevel(
      visibleSpace(tx, caller, path.spaceId).level,
      'edit',
      `removing requested reviewers of change requests of space ${path.spaceId}`,
      `space ${path.spaceId}`,
    );
    const q = requestsOf(tx, cr).find((x) => x.user === path.userId);
    return q ? tx.delete(ChangeRequestReviewers, q.id) : false;
  });
  return { status: removed ? 205 : 204 };
});

export const getContributorsByChangeRequestId = defineOperation('getContributorsByChangeRequestId', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  return ctx.store.read((tx) => {
    const { cr } = readChangeRequest(tx, caller, path.spaceId, path.changeRequestId);
    const items = [...contributorsOf(tx, cr)]
      .sort((a, b) => b[1].updatedAt.localeCompare(a[1].updatedAt) || a[0].localeCompare(b[0]))
      .map(([id, c]) => ({ user: user(ctx, tx, id), count: c.count, updatedAt: c.updatedAt, actionType: 'edit' as const }));
    return { status: 200, body: { items, count: items.length } };
  });
});

export const listChangeRequestsForOrganization = defineOperation('listChangeRequestsForOrganization', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const list = listForOrganization(tx, caller, path.organizationId, query);
    return { status: 200, body: paginate(list, query, ({ cr, space }) => presentChangeRequest(ctx, tx, cr, space.organization)) };
  }),
);
