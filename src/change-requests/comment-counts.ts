import type { ReadTx } from '../store/port.js';
import { Comments } from '../comments/tables.js';

// Counts of comments a change request shows, computed from the rows at every read (never stored,
// so never stale). Here rather than in comments/, which sits above change-requests/ (a comment
// may be on a change request): only the comments' record type is named, an import erased at run time.

/** Change request `comments`: its open comments. */
export function openCommentsOfChangeRequest(tx: ReadTx, changeRequest: string): number {
  return tx.find(Comments, 'changeRequest', changeRequest).filter((c) => c.status === 'open').length;
}
