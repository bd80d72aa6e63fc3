import type { ChangeRequestRecord } from '../change-requests/model.js';
import { findChangeRequest } from '../change-requests/lookup.js';
import type { Caller } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { atLeast, type MemberRole } from '../kernel/roles.js';
import type { SpaceRecord } from '../spaces/model.js';
import { visibleSpace } from '../spaces/service.js';
import type { ReadTx } from '../store/port.js';
import { requireLevel } from '../tree/access.js';
import type { CommentRecord, CommentReplyRecord } from './model.js';
import { CommentReplies, Comments } from './tables.js';

// Where a comment lives: a space, or a change request of a space. The space form and the
// change-request form of every operation share one implementation; a comment is reached only
// through its own form (a change request's comment is not a space comment, and not another
// change request's), and is otherwise a 404.

export interface Where {
  spaceId: string;
  changeRequestId?: string;
}

export interface Scope {
  space: SpaceRecord;
  /** The caller's level on the space (docs/manual/collections-and-spaces.md). */
  level: MemberRole;
  cr?: ChangeRequestRecord;
}

/** The space (and change request) the caller can see, or 404. */
export function scopeOf(tx: ReadTx, caller: Caller, where: Where): Scope {
  const { row: space, level } = visibleSpace(tx, caller, where.spaceId);
  const cr = where.changeRequestId === undefined ? undefined : findChangeRequest(tx, space.id, where.changeRequestId);
  return { space, level, cr };
}

export const scopeName = (s: Scope) => (s.cr ? `change request ${s.cr.number} of space ${s.space.id}` : `space ${s.space.id}`);

/** Discussing (posting, replying, reacting, resolving) needs the `comment` level on the space. */
export function requireCommentLevel(s: Scope, action: string): void {
  requireLevel(s.level, 'comment', `${action} in ${scopeName(s)}`, `space ${s.space.id}`);
}

export function findComment(tx: ReadTx, s: Scope, id: string): CommentRecord | undefined {
  const c = tx.get(Comments, id);
  return c && c.space === s.space.id && c.changeRequest === s.cr?.id ? c : undefined;
}

export function requireComment(tx: ReadTx, s: Scope, id: string): CommentRecord {
  const c = findComment(tx, s, id);
  if (!c) throw notFound(`comment ${id} not found in ${scopeName(s)}`);
  return c;
}

export function findReply(tx: ReadTx, comment: CommentRecord, id: string): CommentReplyRecord | undefined {
  const r = tx.get(CommentReplies, id);
  return r && r.comment === comment.id ? r : undefined;
}

export function requireReply(tx: ReadTx, comment: CommentRecord, id: string): CommentReplyRecord {
  const r = findReply(tx, comment, id);
  if (!r) throw notFound(`reply ${id} not found in comment ${comment.id}`);
  return r;
}

/**
 * What the caller may do with a comment or reply (the contract's `permissions`): anyone who sees
 * the space views it; `comment` level replies and reacts; its author (still at `comment` level)
 * edits its body; its author or an admin of the space (organization admins are) deletes it.
 */
export function postPermissions(s: Scope, caller: Caller, postedBy: string) {
  const discuss = atLeast(s.level, 'comment');
  const author = postedBy === caller.userId;
  return { view: true, edit: discuss && author, reply: discuss, delete: atLeast(s.level, 'admin') || (discuss && author) };
}
