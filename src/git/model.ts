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

/**
 * A Git Sync installation (installGitSyncProviderOnTarget; docs/manual/imports-and-git.md#git-sync-installations):
 * a provider on a space or a site, and the repository (under the Git root) and branch it syncs with.
 */
export interface GitSyncInstallationRecord {
  id: string;
  organization: string;
  provider: 'github' | 'gitlab';
  target: { type: 'space'; space: string; site?: string } | { type: 'site'; site: string };
  /** `space:<id>` or `site:<id>`: one installation per target. */
  key: string;
  /** The site of a site installation or of a space installation it manages. */
  site?: string;
  /** The site installation that manages this space installation. */
  parent?: string;
  /** The repository's full name under the Git root (`account/name`, `_/name` directly under it). */
  repository?: string;
  /** `refs/heads/<branch>`. */
  branch?: string;
  projectDirectory?: string;
  commitMessageTemplate?: string;
  previewExternalBranches?: boolean;
  agentInstructions?: ('agents' | 'claude')[];
  priority?: 'git' | 'gitbook';
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}
