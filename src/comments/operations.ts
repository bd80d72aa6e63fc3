import type { OperationId } from '../contract/types.js';
import type { Context } from '../kernel/context.js';
import { defineOperation, type OperationRequest } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { presentMember } from '../members/present.js';
import { purgeIfExpired } from '../space-expiry.js';
import type { ReadTx } from '../store/port.js';
import { formatBodies } from './body.js';
import { presentComment, presentReply } from './present.js';
import * as replies from './replies.js';
import { requireComment, scopeOf, type Where } from './scope.js';
import * as service from './service.js';

// Every comment operation has a space form and a change-request form (API.md "Comments"); each
// pair shares one handler, the change request coming from the path when there is one.

/** The input of either form of an operation. */
type Both<Op extends string> = OperationRequest<Extract<OperationId, `${Op}InSpace` | `${Op}InChangeRequest`>>;

const where = (path: Record<string, string>): Where => ({
  spaceId: path.spaceId!,
  ...(path.changeRequestId !== undefined ? { changeRequestId: path.changeRequestId } : {}),
});

/** Reads, then formats bodies (the Document form is built outside the read). */
async function answer<T extends { body: { markdown?: string; document?: unknown } }>(ctx: Context, read: (tx: ReadTx) => T, format?: string) {
  const body = await ctx.store.read(read);
  await formatBodies([body], format);
  return { status: 200, body };
}

const list = async ({ ctx, caller, path, query }: Both<'listComments'>) => {
  await purgeIfExpired(ctx, path.spaceId);
  const body = await ctx.store.read((tx) => {
    const { scope, rows } = service.listComments(tx, caller, where(path), query);
    return paginate(rows, query, (c) => presentComment(ctx, tx, scope, caller, c));
  });
  await formatBodies(body.items, query.format);
  return { status: 200, body };
};

const post = async ({ ctx, caller, path, body }: Both<'postComment'>) => {
  await purgeIfExpired(ctx, path.spaceId);
  const { scope, comment } = await ctx.store.write((tx) => service.postComment(tx, ctx, caller, where(path), body));
  return answer(ctx, (tx) => presentComment(ctx, tx, scope, caller, comment));
};

const get = async ({ ctx, caller, path, query }: Both<'getComment'>) => {
  await purgeIfExpired(ctx, path.spaceId);
  return answer(
    ctx,
    (tx) => {
      const scope = scopeOf(tx, caller, where(path));
      return presentComment(ctx, tx, scope, caller, requireComment(tx, scope, path.commentId));
    },
    query.format,
  );
};

const update = async ({ ctx, caller, path, body }: Both<'updateComment'>) => {
  await purgeIfExpired(ctx, path.spaceId);
  const { scope, comment } = await ctx.store.write((tx) => service.updateComment(tx, ctx, caller, where(path), path.commentId, body));
  return answer(ctx, (tx) => presentComment(ctx, tx, scope, caller, comment));
};

const remove = async ({ ctx, caller, path }: Both<'deleteComment'>) => {
  await purgeIfExpired(ctx, path.spaceId);
  const deleted = await ctx.store.write((tx) => service.deleteComment(tx, caller, where(path), path.commentId));
  return { status: deleted ? 205 : 204 };
};

const listReplies = async ({ ctx, caller, path, query }: Both<'listCommentReplies'>) => {
  await purgeIfExpired(ctx, path.spaceId);
  const body = await ctx.store.read((tx) => {
    const { scope, rows } = replies.listReplies(tx, caller, where(path), path.commentId);
    return paginate(rows, query, (r) => presentReply(ctx, tx, scope, caller, r));
  });
  await formatBodies(body.items, query.format);
  return { status: 200, body };
};

const postReply = async ({ ctx, caller, path, query, body }: Both<'postCommentReply'>) => {
  await purgeIfExpired(ctx, path.spaceId);
  const { scope, reply } = await ctx.store.write((tx) => replies.postReply(tx, ctx, caller, where(path), path.commentId, body));
  // Only the space form declares `format` (0.146.0).
  return answer(ctx, (tx) => presentReply(ctx, tx, scope, caller, reply), 'format' in query ? query.format : undefined);
};

const getReply = async ({ ctx, caller, path, query }: Both<'getCommentReply'>) => {
  await purgeIfExpired(ctx, path.spaceId);
  return answer(
    ctx,
    (tx) => {
      const { scope, reply } = replies.readReply(tx, caller, where(path), path.commentId, path.commentReplyId);
      return presentReply(ctx, tx, scope, caller, reply);
    },
    query.format,
  );
};

const updateReply = async ({ ctx, caller, path, body }: Both<'updateCommentReply'>) => {
  await purgeIfExpired(ctx, path.spaceId);
  const { scope, reply } = await ctx.store.write((tx) => replies.updateReply(tx, ctx, caller, where(path), path.commentId, path.commentReplyId, body));
  return answer(ctx, (tx) => presentReply(ctx, tx, scope, caller, reply));
};

const removeReply = async ({ ctx, caller, path }: Both<'deleteCommentReply'>) => {
  await purgeIfExpired(ctx, path.spaceId);
  const deleted = await ctx.store.write((tx) => replies.deleteReply(tx, caller, where(path), path.commentId, path.commentReplyId));
  return { status: deleted ? 205 : 204 };
};

const commenters = async ({ ctx, caller, path, query }: Both<'listCommenters'>) => {
  await purgeIfExpired(ctx, path.spaceId);
  return ctx.store.read((tx) => ({ status: 200, body: paginate(service.listCommenters(tx, caller, where(path)), query, (m) => presentMember(ctx, tx, m)) }));
};

export const listCommentsInSpace = defineOperation('listCommentsInSpace', list);
export const postCommentInSpace = defineOperation('postCommentInSpace', post);
export const getCommentInSpace = defineOperation('getCommentInSpace', get);
export const updateCommentInSpace = defineOperation('updateCommentInSpace', update);
export const deleteCommentInSpace = defineOperation('deleteCommentInSpace', remove);
export const listCommentRepliesInSpace = defineOperation('listCommentRepliesInSpace', listReplies);
export const postCommentReplyInSpace = defineOperation('postCommentReplyInSpace', postReply);
export const getCommentReplyInSpace = defineOperation('getCommentReplyInSpace', getReply);
export const updateCommentReplyInSpace = defineOperation('updateCommentReplyInSpace', updateReply);
export const deleteCommentReplyInSpace = defineOperation('deleteCommentReplyInSpace', removeReply);
export const listCommentersInSpace = defineOperation('listCommentersInSpace', commenters);

export const listCommentsInChangeRequest = defineOperation('listCommentsInChangeRequest', list);
export const postCommentInChangeRequest = defineOperation('postCommentInChangeRequest', post);
export const getCommentInChangeRequest = defineOperation('getCommentInChangeRequest', get);
export const updateCommentInChangeRequest = defineOperation('updateCommentInChangeRequest', update);
export const deleteCommentInChangeRequest = defineOperation('deleteCommentInChangeRequest', remove);
export const listCommentRepliesInChangeRequest = defineOperation('listCommentRepliesInChangeRequest', listReplies);
export const postCommentReplyInChangeRequest = defineOperation('postCommentReplyInChangeRequest', postReply);
export const getCommentReplyInChangeRequest = defineOperation('getCommentReplyInChangeRequest', getReply);
export const updateCommentReplyInChangeRequest = defineOperation('updateCommentReplyInChangeRequest', updateReply);
export const deleteCommentReplyInChangeRequest = defineOperation('deleteCommentReplyInChangeRequest', removeReply);
export const listCommentersInChangeRequest = defineOperation('listCommentersInChangeRequest', commenters);
