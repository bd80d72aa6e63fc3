import type { Schema } from '../contract/types.js';
import { apiUrl, type Context } from '../kernel/context.js';
import { repoId } from './local-repos.js';
import type { GitSyncInstallationRecord } from './model.js';

/**
 * The contract's GitSyncInstallation (0.202.0). `status` is `active` once a repository and a
 * branch are set, `pending` before. The repository connection names the repository under the Git
 * root: `repositoryUrl` is `git-root:<account>/<name>` (a URI, not the server's path on its disk;
 * importGitRepository takes the same repository as `--url <account>/<name>`, or `<name>` for `_`).
 */
export function presentGitInstallation(ctx: Context, r: GitSyncInstallationRecord): Schema<'GitSyncInstallation'> {
  const id = r.repository ? repoId(r.repository) : undefined;
  const config = {
    ...(id !== undefined ? (r.provider === 'github' ? { repositoryId: id } : { projectId: id }) : {}),
    ...(r.branch ? { branch: r.branch } : {}),
  };
  const setup =
    r.provider === 'github' ? { provider: 'github' as const, providerConfiguration: config } : { provider: 'gitlab' as const, providerConfiguration: config };
  return {
    ...setup,
    ...(r.projectDirectory !== undefined ? { projectDirectory: r.projectDirectory } : {}),
    ...(r.commitMessageTemplate !== undefined ? { commitMessageTemplate: r.commitMessageTemplate } : {}),
    ...(r.previewExternalBranches !== undefined ? { previewExternalBranches: r.previewExternalBranches } : {}),
    ...(r.agentInstructions ? { agentInstructions: r.agentInstructions } : {}),
    ...(r.priority ? { priority: r.priority } : {}),
    object: 'git-sync-installation',
    id: r.id,
    ...(r.parent ? { parentInstallationId: r.parent } : {}),
    target:
      r.target.type === 'site'
        ? { type: 'site', siteId: r.target.site }
        : { type: 'space', spaceId: r.target.space, ...(r.target.site ? { siteId: r.target.site } : {}) },
    status: r.repository && r.branch ? 'active' : 'pending',
    ...(r.repository
      ? {
          repositoryConnection: {
            object: 'git-repository-connection' as const,
            id: `${r.id}-repository`,
            provider: r.provider,
            repositoryId: String(id),
            repositoryName: r.repository,
            repositoryUrl: `git-root:${r.repository}`,
            authState: 'active' as const,
            // This server opens no pull requests and publishes no commit statuses.
            capabilities: { pullRequests: false, commitStatuses: false },
            createdAt: r.createdAt,
            updatedAt: r.updatedAt,
          },
        }
      : {}),
    ...(r.branch
      ? { repositoryRef: { object: 'git-repository-ref' as const, id: `${r.id}-ref`, name: r.branch, type: 'branch' as const, updatedAt: r.updatedAt } }
      : {}),
    createdAt: r.createdAt,
    createdBy: r.createdBy,
    updatedAt: r.updatedAt,
    urls: { location: apiUrl(ctx, `/git/installations/${r.id}`) },
  };
}
