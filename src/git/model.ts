// A space's last Git sync (docs/manual/imports-and-git.md#git): where, which ref, which way, how it ended.
export interface GitSyncRecord {
  /** The space's id. */
  id: string;
  space: string;
  /** The repository's URL without credentials, or its local path. */
  url: string;
  ref: string;
  provider?: 'github' | 'gitlab';
  treeUrl?: string;
  direction: 'import' | 'export';
  state: 'running' | 'success' | 'failure';
  startedAt: string;
  endedAt?: string;
  error?: string;
  /** The commit imported or written. */
  commit?: string;
  /** The change request an import wrote (standalone, or when it could not be merged). */
  changeRequest?: string;
  updatedAt: string;
}
