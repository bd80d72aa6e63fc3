import { conflict, notFound } from '../kernel/errors.js';
import type { ReadTx } from '../store/port.js';
import type { ChangeRequestRecord } from './model.js';
import { ChangeRequests } from './tables.js';

// Finding a change request and the guards on its status: the lowest piece of the area, which
// the service, the reviews and the merge rules all use (here, so none of them imports another
// in a circle), and the areas writing into a change request's content build on.

export function crsOf(tx: ReadTx, space: string): ChangeRequestRecord[] {
  return tx.find(ChangeRequests, 'space', space).sort((a, b) => b.number - a.number);
}

/** A change request of the space by id or by number, or 404. */
export function findChangeRequest(tx: ReadTx, space: string, idOrNumber: string): ChangeRequestRecord {
  const byId = tx.get(ChangeRequests, idOrNumber);
  if (byId && byId.space === space) return byId;
  if (/^\d+$/.test(idOrNumber)) {
    const n = Number(idOrNumber);
    const hit = crsOf(tx, space).find((c) => c.number === n);
    if (hit) return hit;
  }
  throw notFound(`change request ${idOrNumber} not found in space ${space}`);
}

/** A change request that may still receive content (not merged, not archived). */
export function requireWritable(cr: ChangeRequestRecord): void {
  if (cr.status === 'merged') throw conflict(`change request ${cr.number} is merged: its content can no longer change`);
  if (cr.status === 'archived') throw conflict(`change request ${cr.number} is archived: set its status to open to edit it`);
}
