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
  /** The space's revision the change request was last updated from (POST .../update): its new base. */
  revisionMergedAncestor?: string;
  revisionMerged?: string;
  mergedBy?: string;
  mergedAt?: string;
  /** The contract's Document, as given (PATCH). */
  description?: unknown;
  /** The issues cluster (conversations) this change request addresses. */
  conversationsIssuesCluster?: string;
  /** The style guide check that opened it (docs/manual/styleguides.md#check-runs): its site and run, the pages the last check changed and when. */
  styleguide?: { site: string; run: string; changedPages?: number; checkedAt?: string };
}

export const SUBJECT_MAX = 100;

/** The revision the change request's changes are measured from: its last update from the space, else where it started. */
export const baseOf = (cr: Pick<ChangeRequestRecord, 'revisionMergedAncestor' | 'revisionInitial'>) => cr.revisionMergedAncestor ?? cr.revisionInitial;
