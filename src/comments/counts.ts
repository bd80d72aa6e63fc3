import type { ReadTx } from '../store/port.js';
import type { CommentRecord } from './model.js';

// Counts other areas show, computed from the rows at every read (never stored, so never stale).

/** Change request `comments`: its open comments. */
export function openCommentsOfChangeRequest(tx: ReadTx, changeRequest: string): number {
  return tx.find<CommentRecord>('comments', 'changeRequest', changeRequest).filter((c) => c.status === 'open').length;
}
