import type { Schema } from '../contract/types.js';
import { apiUrl, type Context } from '../kernel/context.js';
import type { ReadTx } from '../store/port.js';
import { presentUser } from '../users/present.js';
import type { Caller } from '../kernel/context.js';
import type { CommentRecord, CommentReplyRecord } from './model.js';
import { aggregateReactions } from './reactions.js';
import { postPermissions, type Scope } from './scope.js';
import { CommentReplies } from './tables.js';
import { Users } from '../users/tables.js';

/** A User object; a user removed from the installation still shows who posted. */
export function userOf(ctx: Context, tx: ReadTx, id: string) {
  const u = tx.get(Users, id);
  return u ? presentUser(ctx, u) : { object: 'user' as const, id, displayName: 'Deleted user', urls: { location: apiUrl(ctx, `/users/${id}`) } };
}

const base = (s: Scope) => (s.cr ? `/spaces/${s.space.id}/change-requests/${s.cr.id}/comments` : `/spaces/${s.space.id}/comments`);

/** The contract's Comment; `body` is markdown (see formatBodies for the Document form). */
export function presentComment(ctx: Context, tx: ReadTx, s: Scope, caller: Caller, c: CommentRecord): Schema<'Comment'> {
  const user = (id: string) => userOf(ctx, tx, id);
  const replies = tx.find(CommentReplies, 'comment', c.id);
  // Repliers: one entry per user, with how many replies and their latest, most recent first.
  const byUser = new Map<string, { count: number; updatedAt: string }>();
  for (const r of replies) {
    const at = r.editedAt && r.editedAt > r.postedAt ? r.editedAt : r.postedAt;
    const e = byUser.get(r.postedBy);
    byUser.set(r.postedBy, { count: (e?.count ?? 0) + 1, updatedAt: e && e.updatedAt > at ? e.updatedAt : at });
  }
  const repliers = [...byUser]
    .sort((a, b) => b[1].updatedAt.localeCompare(a[1].updatedAt) || a[0].localeCompare(b[0]))
    .map(([id, e]) => ({ updatedAt: e.updatedAt, count: e.count, user: user(id) }));
  const t = c.target;
  return {
    object: 'comment' as const,
    id: c.id,
    postedBy: user(c.postedBy),
    postedAt: c.postedAt,
    ...(c.editedAt ? { editedAt: c.editedAt } : {}),
    reactions: aggregateReactions(c.reactions, user),
    replies: replies.length,
    repliers,
    body: { markdown: c.markdown } as { markdown?: string; document?: unknown },
    target: {
      space: c.space,
      revision: t.revision,
      ...(c.changeRequest ? { changeRequest: c.changeRequest } : {}),
      ...(t.page ? { page: { id: t.page } } : {}),
      ...(t.node ? { node: { id: t.node } } : {}),
      ...(t.tableCell ? { tableCell: t.tableCell } : {}),
    },
    urls: { location: apiUrl(ctx, `${base(s)}/${c.id}`) },
    permissions: postPermissions(s, caller, c.postedBy),
    ...(c.status === 'resolved' ? { status: 'resolved' as const, resolvedAt: c.resolvedAt!, resolvedBy: user(c.resolvedBy!) } : { status: 'open' as const }),
  };
}

/** The contract's CommentReply. */
export function presentReply(ctx: Context, tx: ReadTx, s: Scope, caller: Caller, r: CommentReplyRecord): Schema<'CommentReply'> {
  const user = (id: string) => userOf(ctx, tx, id);
  return {
    object: 'comment-reply' as const,
    id: r.id,
    postedBy: user(r.postedBy),
    postedAt: r.postedAt,
    ...(r.editedAt ? { editedAt: r.editedAt } : {}),
    reactions: aggregateReactions(r.reactions, user),
    body: { markdown: r.markdown } as { markdown?: string; document?: unknown },
    urls: { location: apiUrl(ctx, `${base(s)}/${r.comment}/replies/${r.id}`) },
    permissions: postPermissions(s, caller, r.postedBy),
  };
}
