import { markdownToDocument } from '../documents/markdown.js';
import { apiUrl, type Context } from '../kernel/context.js';
import type { ReadTx } from '../store/port.js';
import { user } from './present.js';
import type { ReviewRecord, ReviewRequestRecord } from './reviews.js';

const reviewUrl = (ctx: Context, r: ReviewRecord) => apiUrl(ctx, `/spaces/${r.space}/change-requests/${r.changeRequest}/reviews/${r.id}`);

/**
 * The contract's ChangeRequestReview. Its comment is a Comment of the review (target.review):
 * written once with the review, so nobody may edit or delete it and it has no replies.
 */
export async function presentReview(ctx: Context, tx: ReadTx, r: ReviewRecord, outdated: boolean, format: 'markdown' | 'document' = 'markdown') {
  const body = r.comment === undefined ? undefined : format === 'document' ? { document: await markdownToDocument(r.comment) } : { markdown: r.comment };
  return {
    object: 'change-request-review' as const,
    id: r.id,
    revision: r.revision,
    reviewer: user(ctx, tx, r.reviewer),
    ...(r.requestedBy ? { requestedBy: user(ctx, tx, r.requestedBy) } : {}),
    status: r.status,
    outdated,
    ...(body
      ? {
          comment: {
            object: 'comment' as const,
            id: r.id,
            status: 'open' as const,
            postedBy: user(ctx, tx, r.reviewer),
            postedAt: r.createdAt,
            reactions: [],
            replies: 0,
            repliers: [],
            body,
            target: { space: r.space, revision: r.revision, changeRequest: r.changeRequest, review: r.id },
            urls: { location: reviewUrl(ctx, r) },
            permissions: { view: true, edit: false, reply: false, delete: false },
          },
        }
      : {}),
    createdAt: r.createdAt,
    updatedAt: r.createdAt,
    urls: { location: reviewUrl(ctx, r) },
  };
}

/** The contract's ChangeRequestRequestedReviewer (kind user: requests name users). */
export function presentReviewRequest(ctx: Context, tx: ReadTx, q: ReviewRequestRecord) {
  return {
    object: 'change-request-requested-reviewer' as const,
    revision: q.revision,
    requestedBy: user(ctx, tx, q.requestedBy),
    createdAt: q.createdAt,
    kind: 'user' as const,
    user: user(ctx, tx, q.user),
  };
}

export { reviewUrl };
