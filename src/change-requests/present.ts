import type { Schema } from '../contract/types.js';
import { openCommentsOfChangeRequest } from './comment-counts.js';
import { apiUrl, type Context } from '../kernel/context.js';
import type { ReadTx } from '../store/port.js';
import { presentUser } from '../users/present.js';
import { baseOf, type ChangeRequestRecord } from './model.js';
import { Spaces } from '../spaces/tables.js';
import { Users } from '../users/tables.js';

/** A User object for an id; a user deleted since is shown as such. */
export const user = (ctx: Context, tx: ReadTx, id: string) => {
  const u = tx.get(Users, id);
  return u ? presentUser(ctx, u) : { object: 'user' as const, id, displayName: 'Deleted user', urls: { location: apiUrl(ctx, `/users/${id}`) } };
};

/** The contract's ChangeRequest object. */
export function presentChangeRequest(ctx: Context, tx: ReadTx, cr: ChangeRequestRecord, organization: string): Schema<'ChangeRequest'> {
  return {
    object: 'change-request' as const,
    id: cr.id,
    number: cr.number,
    status: cr.status,
    subject: cr.subject,
    // A description cleared to null is no description: the contract has no null here.
    ...(cr.description != null ? { description: cr.description as Schema<'ChangeRequest'>['description'] } : {}),
    createdBy: user(ctx, tx, cr.createdBy),
    createdAt: cr.createdAt,
    updatedAt: cr.updatedAt,
    ...(cr.mergedBy ? { mergedBy: user(ctx, tx, cr.mergedBy), mergedAt: cr.mergedAt } : {}),
    space: cr.space,
    revision: cr.revision,
    revisionInitial: cr.revisionInitial,
    ...(cr.revisionMergedAncestor ? { revisionMergedAncestor: cr.revisionMergedAncestor } : {}),
    ...(cr.revisionMerged ? { revisionMerged: cr.revisionMerged } : {}),
    ...(cr.conversationsIssuesCluster ? { conversationsIssuesCluster: cr.conversationsIssuesCluster } : {}),
    ...(cr.styleguide ? { styleguide: cr.styleguide } : {}),
    comments: openCommentsOfChangeRequest(tx, cr.id),
    // The space moved on since the change request's base (an update from the space moves the base).
    outdated: cr.status !== 'merged' && tx.get(Spaces, cr.space)?.revision !== baseOf(cr),
    urls: {
      app: `${ctx.baseUrl}/o/${organization}/s/${cr.space}/~/changes/${cr.number}`,
      location: apiUrl(ctx, `/spaces/${cr.space}/change-requests/${cr.id}`),
    },
  };
}
