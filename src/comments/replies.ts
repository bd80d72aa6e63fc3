import type { Caller, Context } from '../kernel/context.js';
import { invalid } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { bodyMarkdown } from './body.js';
import { applyReactions } from './reactions.js';
import { findComment, findReply, requireComment, requireCommentLevel, requireReply, scopeOf, type Where } from './scope.js';
import { editedBody, requireDeletable, requireSomeField, type CommentUpdate, type NewComment } from './service.js';
import { CommentReplies } from './tables.js';

// Replies to a comment: a flat thread under it, in the order they were posted.

export function listReplies(tx: ReadTx, caller: Caller, where: Where, commentId: string) {
  const s = scopeOf(tx, caller, where);
  const comment = requireComment(tx, s, commentId);
  const rows = tx.find(CommentReplies, 'comment', comment.id).sort((a, b) => a.postedAt.localeCompare(b.postedAt) || a.id.localeCompare(b.id));
  return { scope: s, rows };
}

export function readReply(tx: ReadTx, caller: Caller, where: Where, commentId: string, replyId: string) {
  const s = scopeOf(tx, caller, where);
  return { scope: s, reply: requireReply(tx, requireComment(tx, s, commentId), replyId) };
}

export function postReply(tx: WriteTx, ctx: Context, caller: Caller, where: Where, commentId: string, body: { body: NewComment['body'] }) {
  const s = scopeOf(tx, caller, where);
  const comment = requireComment(tx, s, commentId);
  requireCommentLevel(s, 'replying to comments');
  const reply = tx.put(CommentReplies, {
    id: newId(),
    space: s.space.id,
    comment: comment.id,
    postedBy: caller.userId,
    postedAt: ctx.clock.now().toISOString(),
    markdown: bodyMarkdown(body.body),
    reactions: [],
  });
  return { scope: s, reply };
}

const UPDATE_FIELDS = ['body', 'addedReactions', 'removedReactions'];

/** Edits the body (author only) and the caller's reactions. A reply has no status of its own. */
export function updateReply(tx: WriteTx, ctx: Context, caller: Caller, where: Where, commentId: string, replyId: string, body: CommentUpdate) {
  const s = scopeOf(tx, caller, where);
  const r = requireReply(tx, requireComment(tx, s, commentId), replyId);
  // The change-request form takes the comment-update schema, `resolved` included (ENDPOINTS.md).
  if (body.resolved !== undefined) throw invalid(`resolved: a reply has no status; resolve its comment instead (PUT .../comments/${commentId})`);
  requireSomeField(body, UPDATE_FIELDS);
  requireCommentLevel(s, 'updating replies');
  const now = ctx.clock.now().toISOString();
  let next = body.body !== undefined ? editedBody(caller, r, body.body, now, 'reply') : r;
  const reactions = applyReactions(next.reactions, caller.userId, body.addedReactions, body.removedReactions, now);
  if (reactions !== next.reactions) next = { ...next, reactions: [...reactions] };
  return { scope: s, reply: next === r ? r : tx.put(CommentReplies, next) };
}

/** False when there was no such reply, or no such comment (204: "comment or reply did not exist"). */
export function deleteReply(tx: WriteTx, caller: Caller, where: Where, commentId: string, replyId: string): boolean {
  const s = scopeOf(tx, caller, where);
  const comment = findComment(tx, s, commentId);
  const r = comment && findReply(tx, comment, replyId);
  if (!r) return false;
  requireDeletable(s, caller, r.postedBy, `reply ${replyId}`);
  tx.delete(CommentReplies, r.id);
  return true;
}
