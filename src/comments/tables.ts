import { table } from '../store/port.js';
import type { CommentRecord, CommentReplyRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): another area reads these rows by
// importing a handle from here, an import the layering test checks. Comments and their replies.
// The second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const Comments = table<CommentRecord, 'space' | 'changeRequest'>('comments');
export const CommentReplies = table<CommentReplyRecord, 'space' | 'comment'>('commentReplies');
