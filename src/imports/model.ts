import type { LayoutKind } from './layout.js';

// An import run (startImportRun): content brought from an archive, a URL or a laid-out folder into
// a change request of the target space, off the request path (runner.ts). States
// (docs/manual/imports-and-git.md#import-runs): pending -> in-progress -> completed | failed,
// and cancelled from either of the first two.

export type ImportStatus = 'pending' | 'in-progress' | 'completed' | 'failed' | 'cancelled';

export type ImportSource = { type: 'website'; url: string } | { type: 'file'; files: string[] };

export interface ImportRunRecord {
  id: string;
  organization: string;
  status: ImportStatus;
  /** `waiting` while the runner has work to do (pending or in-progress), else `idle`. */
  queue: 'waiting' | 'idle';
  source: ImportSource;
  target: { space: string; changeRequest?: string; page?: string };
  site?: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  startedAt?: string;
  completedAt?: string;
  reason?: string;
  /** The layout the import was read as. */
  layout?: LayoutKind;
  /** The change request the pages were written into. */
  changeRequest?: string;
  pages: { id: string; type: 'page' | 'folder'; sourceURL?: string }[];
}
