// A change request: a line of revisions of a space's content, started from the space's revision
// at creation (`revisionInitial`), advanced by content batches (`revision`), and merged into the
// space. Rows live in the space's shard (`changeRequests`, indexed by `space`).
export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';

export interface ChangeRequestRecord {
  id: string;
  space: string;
  /** 1, 2, 3... per space: the only sequential id (DESIGN.md). */
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  revision: string;
  revisionInitial: string;
  revisionMerged?: string;
  mergedBy?: string;
  mergedAt?: string;
  /** The issues cluster (conversations) this change request addresses. */
  conversationsIssuesCluster?: string;
}

export const SUBJECT_MAX = 100;
