import { readRevision, treeOf } from '../content/revisions.js';
import { flatten } from '../content/tree.js';
import type { Caller, Context } from '../kernel/context.js';
import { forbidden, invalid } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { findMember } from '../organizations/service.js';
import type { MemberRecord } from '../organizations/model.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { bodyMarkdown } from './body.js';
import type { CommentRecord, CommentTarget } from './model.js';
import { applyReactions } from './reactions.js';
import { postPermissions, requireComment, requireCommentLevel, scopeName, scopeOf, findComment, type Scope, type Where } from './scope.js';
import { CommentReplies, Comments } from './tables.js';

// Comments: list, post, update (resolve, edit, react), delete; and the commenters of a space or
// a change request. Replies are in replies.ts.

/** The comments of the scope: a change request's, or the space's own (not its change requests'). */
export function commentsIn(tx: ReadTx, s: Scope): CommentRecord[] {
  return s.cr ? tx.find(Comments, 'changeRequest', s.cr.id) : tx.find(Comments, 'space', s.space.id).filter((c) => !c.changeRequest);
}

export interface ListQuery {
  order?: 'asc' | 'desc';
  status?: 'all' | 'open' | 'resolved';
  targetPage?: string;
  authors?: string[];
}

/** Comments by `postedAt` (`desc` by default, ties by id), filtered as the query says. */
export function listComments(tx: ReadTx, caller: Caller, where: Where, q: ListQuery) {
  const s = scopeOf(tx, caller, where);
  const status = q.status ?? 'all';
  const authors = q.authors?.length ? new Set(q.authors) : undefined;
  const rows = commentsIn(tx, s)
    .filter(
      (c) =>
        (status === 'all' || c.status === status) && (q.targetPage === undefined || c.target.page === q.targetPage) && (!authors || authors.has(c.postedBy)),
    )
    .sort((a, b) => a.postedAt.localeCompare(b.postedAt) || a.id.localeCompare(b.id));
  if ((q.order ?? 'desc') === 'desc') rows.reverse();
  return { scope: s, rows };
}

/** An id given for a node or a table cell: what the client's editor named it, kept as given. */
function ref(value: unknown, field: string): string {
  const v = String(value).trim();
  if (v.length < 1 || v.length > 255) throw invalid(`${field}: must be 1 to 255 characters`);
  return v;
}

export interface NewComment {
  body: { markdown?: string; document?: { nodes?: unknown[] } };
  page?: string;
  node?: string;
  tableCell?: { record: string; definition: string };
}

/**
 * The target of a new comment, in the revision it is read in (the change request's, else the
 * space's): a page must exist there; a node or a table cell is inside a page, so needs `page`.
 */
function targetOf(tx: ReadTx, s: Scope, body: NewComment): CommentTarget {
  const revision = s.cr ? s.cr.revision : s.space.revision;
  const target: CommentTarget = { revision };
  if (body.page !== undefined) {
    const pages = flatten(treeOf(tx, readRevision(tx, s.space.id, revision)));
    if (!pages.some((l) => l.node.id === body.page)) throw invalid(`page: no page ${body.page} in ${scopeName(s)}`);
    target.page = body.page;
  }
  if (body.node !== undefined) {
    if (body.page === undefined) throw invalid('node: needs page (a node is a block of a page)');
    target.node = ref(body.node, 'node');
  }
  if (body.tableCell !== undefined) {
    if (body.page === undefined) throw invalid('tableCell: needs page (a table cell is in a page)');
    target.tableCell = { record: ref(body.tableCell.record, 'tableCell.record'), definition: ref(body.tableCell.definition, 'tableCell.definition') };
  }
  return target;
}

export function postComment(tx: WriteTx, ctx: Context, caller: Caller, where: Where, body: NewComment) {
  const s = scopeOf(tx, caller, where);
  requireCommentLevel(s, 'commenting');
  const markdown = bodyMarkdown(body.body);
  const target = targetOf(tx, s, body);
  const comment = tx.put(Comments, {
    id: newId(),
    space: s.space.id,
    ...(s.cr ? { changeRequest: s.cr.id } : {}),
    postedBy: caller.userId,
    postedAt: ctx.clock.now().toISOString(),
    markdown,
    target,
    status: 'open',
    reactions: [],
  });
  return { scope: s, comment };
}

export interface CommentUpdate {
  resolved?: boolean;
  body?: NewComment['body'];
  addedReactions?: string[];
  removedReactions?: string[];
}

const UPDATE_FIELDS = ['resolved', 'body', 'addedReactions', 'removedReactions'];

/** At least one field: an empty update would answer 200 having done nothing. */
export function requireSomeField(body: object, fields: readonly string[]): void {
  if (!Object.keys(body).some((k) => fields.includes(k))) throw invalid(`body: give at least one of ${fields.join(', ')}`);
}

/** Only the author edits a body; editing sets `editedAt` (when the text changes). */
export function editedBody<T extends { id: string; postedBy: string; markdown: string; editedAt?: string }>(
  caller: Caller,
  row: T,
  body: NewComment['body'],
  now: string,
  what: string,
): T {
  if (row.postedBy !== caller.userId) throw forbidden(`body: only the author of ${what} ${row.id} may edit its body`);
  const markdown = bodyMarkdown(body);
  return markdown === row.markdown ? row : { ...row, markdown, editedAt: now };
}

/**
 * Resolves or reopens, edits the body, adds and removes the caller's reactions: all or nothing.
 * Resolving sets who and when; resolving a resolved comment keeps them; reopening clears them.
 */
export function updateComment(tx: WriteTx, ctx: Context, caller: Caller, where: Where, id: string, body: CommentUpdate) {
  const s = scopeOf(tx, caller, where);
  const c = requireComment(tx, s, id);
  requireSomeField(body, UPDATE_FIELDS);
  requireCommentLevel(s, 'updating comments');
  const now = ctx.clock.now().toISOString();
  let next: CommentRecord = body.body !== undefined ? editedBody(caller, c, body.body, now, 'comment') : c;
  if (body.resolved === true && next.status === 'open') next = { ...next, status: 'resolved', resolvedAt: now, resolvedBy: caller.userId };
  if (body.resolved === false && next.status === 'resolved') {
    const { resolvedAt: _a, resolvedBy: _b, ...open } = next;
    next = { ...open, status: 'open' };
  }
  const reactions = applyReactions(next.reactions, caller.userId, body.addedReactions, body.removedReactions, now);
  if (reactions !== next.reactions) next = { ...next, reactions: [...reactions] };
  return { scope: s, comment: next === c ? c : tx.put(Comments, next) };
}

/** 403 unless the caller may delete a post of `postedBy` (its author, or an admin of the space). */
export function requireDeletable(s: Scope, caller: Caller, postedBy: string, what: string): void {
  if (!postPermissions(s, caller, postedBy).delete) {
    throw forbidden(`deleting ${what} needs to be its author (with the comment level) or an admin of space ${s.space.id} (you have ${s.level ?? 'none'})`);
  }
}

/** Deletes a comment and its replies; false when there was no such comment (204). */
export function deleteComment(tx: WriteTx, caller: Caller, where: Where, id: string): boolean {
  const s = scopeOf(tx, caller, where);
  const c = findComment(tx, s, id);
  if (!c) return false;
  requireDeletable(s, caller, c.postedBy, `comment ${id}`);
  for (const r of tx.find(CommentReplies, 'comment', c.id)) tx.delete(CommentReplies, r.id);
  tx.delete(Comments, c.id);
  return true;
}

/**
 * The members who took part in the scope's discussions (posted a comment or a reply), in the
 * order they first did. People no longer members of the organization are left out: the list is
 * of Members.
 */
export function listCommenters(tx: ReadTx, caller: Caller, where: Where): MemberRecord[] {
  const s = scopeOf(tx, caller, where);
  const first = new Map<string, string>();
  const saw = (user: string, at: string) => {
    const prev = first.get(user);
    if (!prev || at < prev) first.set(user, at);
  };
  for (const c of commentsIn(tx, s)) {
    saw(c.postedBy, c.postedAt);
    for (const r of tx.find(CommentReplies, 'comment', c.id)) saw(r.postedBy, r.postedAt);
  }
  return [...first]
    .sort((a, b) => a[1].localeCompare(b[1]) || a[0].localeCompare(b[0]))
    .map(([user]) => findMember(tx, s.space.organization, user))
    .filter((m): m is MemberRecord => m !== undefined);
}
