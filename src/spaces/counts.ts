import { table, type ReadTx, type Row } from '../store/port.js';
import { TABLES } from '../store/tables.js';

interface Counted extends Row {
  status?: string;
  changeRequest?: string | null;
}

// The Space counts, from the rows that exist. The change-request and comment areas wire in by
// registering their tables in src/store/tables.ts under these names, in the space's shard with
// `space` indexed, with a `status` field (change requests: draft/open/archived/merged;
// comments: open/resolved, `changeRequest` set on comments of a change request). Until a table
// exists it has no rows, so its counts are 0. They are named, not imported: both areas sit above
// this one (the one read of other areas' rows by name in src/, see the layering test).
const CHANGE_REQUESTS = 'changeRequests';
const COMMENTS = 'comments';

let known: Set<string> | undefined;

function rowsOf(tx: ReadTx, name: string, spaceId: string): Counted[] {
  // Asked at every read of a space: the table list looked through once.
  known ??= new Set(TABLES.map((t) => t.name));
  return known.has(name) ? tx.find(table<Counted, 'space'>(name), 'space', spaceId) : [];
}

export function spaceCounts(tx: ReadTx, spaceId: string) {
  const crs = rowsOf(tx, CHANGE_REQUESTS, spaceId);
  const comments = rowsOf(tx, COMMENTS, spaceId);
  return {
    // "Count of opened comments on the space": comments of its change requests are not its own.
    comments: comments.filter((c) => c.status !== 'resolved' && !c.changeRequest).length,
    changeRequests: crs.length,
    changeRequestsOpen: crs.filter((c) => c.status === 'open').length,
    changeRequestsDraft: crs.filter((c) => c.status === 'draft').length,
  };
}

export type SpaceCounts = ReturnType<typeof spaceCounts>;
