// Comments and their replies. Both live in the space's shard (`space/<id>`, `space` indexed), so
// duplicating a space copies its discussions and purging it removes them (src/spaces/content-rows.ts).
// A comment of a change request names it in `changeRequest`; a space comment has none. Bodies
// are stored as markdown, the source of truth for text (DESIGN.md "Content"); the Document form
// is built from it when asked for (`format=document`).

/** One user's reaction with one emoji. The API shows them aggregated per emoji. */
export interface ReactionRecord {
  emoji: string;
  user: string;
  reactedAt: string;
}

export interface CommentTarget {
  /** The revision the target was found in when the comment was posted. */
  revision: string;
  page?: string;
  node?: string;
  tableCell?: { record: string; definition: string };
}

export interface CommentRecord {
  id: string;
  space: string;
  /** The change request (id) this comment belongs to; absent on space comments. */
  changeRequest?: string;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  markdown: string;
  target: CommentTarget;
  status: 'open' | 'resolved';
  resolvedAt?: string;
  resolvedBy?: string;
  reactions: ReactionRecord[];
}

export interface CommentReplyRecord {
  id: string;
  space: string;
  comment: string;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  markdown: string;
  reactions: ReactionRecord[];
}

/** Longest body accepted (characters of markdown): a discussion, not a page. */
export const BODY_MAX = 65_536;
/** Most distinct emoji one update may add or remove. */
export const REACTIONS_PER_UPDATE_MAX = 20;
