import type { Caller, Context } from '../kernel/context.js';
import { invalid } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { presentGitInstallation } from './installation-present.js';
import { applyPatch, checkPatch, installGitSync, siteInstallations, uninstall, visibleGitInstallation, type InstallationPatch } from './installations.js';
import { branchesOf, defaultBranch, hasBranch, listLocalRepos, localRepo, localRepoById, fileAt, ROOT_ACCOUNT, type LocalRepo } from './local-repos.js';
import type { GitSyncInstallationRecord } from './model.js';
import { fullRef } from './service.js';
import { exportToGitRepository, importGitRepository } from './operations.js';

// Git Sync installations (docs/manual/imports-and-git.md#git-sync-installations): a provider
// (github or gitlab, the spec's only two) installed on a space or a site, configured with a
// repository and a branch; the repositories, branches and files it may use are those under the
// server's Git root (src/git/local-repos.ts), never GitHub's or GitLab's APIs.

const PROVIDER_NAME = { github: 'GitHub', gitlab: 'GitLab' } as const;

/** An installation the caller may configure (admin on its target), of the provider the route is for. */
async function configurable(ctx: Context, caller: Caller, id: string, provider?: 'github' | 'gitlab'): Promise<GitSyncInstallationRecord> {
  const r = await ctx.store.read((tx) => visibleGitInstallation(tx, caller, id, 'admin', 'listing the repositories of a Git Sync installation'));
  if (provider && r.provider !== provider) {
    const where = r.provider === 'github' ? `/git/installations/${r.id}/github/repos` : `/git/installations/${r.id}/gitlab/projects`;
    throw invalid(
      `installationId: installation ${r.id} is a ${PROVIDER_NAME[r.provider]} installation, not ${PROVIDER_NAME[provider]}: its repositories are listed at ${where}`,
    );
  }
  return r;
}

const what = (r: GitSyncInstallationRecord) => `installation ${r.id} (${PROVIDER_NAME[r.provider]})`;

const listed = async (r: LocalRepo) => ({
  id: r.id,
  accountName: r.accountName,
  repositoryName: r.repositoryName,
  fullName: r.fullName,
  defaultBranch: await defaultBranch(r),
});

export const installGitSyncProviderOnTarget = defineOperation('installGitSyncProviderOnTarget', async ({ ctx, caller, body }) => {
  const r = await ctx.store.write((tx) => installGitSync(tx, ctx, caller, body.provider, body.target as any));
  return { status: 201, body: presentGitInstallation(ctx, r) };
});

export const getGitSyncInstallationById = defineOperation('getGitSyncInstallationById', async ({ ctx, caller, path }) => {
  const r = await ctx.store.read((tx) => visibleGitInstallation(tx, caller, path.installationId));
  return { status: 200, body: presentGitInstallation(ctx, r) };
});

export const listSiteGitSyncInstallations = defineOperation('listSiteGitSyncInstallations', async ({ ctx, caller, path }) => {
  const rows = await ctx.store.read((tx) => siteInstallations(tx, caller, path.organizationId, path.siteId));
  return { status: 200, body: { items: rows.map((r) => presentGitInstallation(ctx, r)) } };
});

const cleanDir = (field: string, d: string) => {
  const dir = d.replace(/^\/+|\/+$/g, '');
  if (dir.split('/').some((s) => s === '..' || s === '.') || dir.includes('\\') || /[\u0000-\u001f]/.test(dir))
    throw invalid(`${field}: ${JSON.stringify(d)} leaves the repository (no "..", "." or backslash)`);
  return dir;
};

/** The repository path importGitRepository takes for a repository under the Git root. */
const urlOf = (fullName: string) => (fullName.startsWith(`${ROOT_ACCOUNT}/`) ? fullName.slice(ROOT_ACCOUNT.length + 1) : fullName);

export const updateGitSyncInstallationById = defineOperation('updateGitSyncInstallationById', async ({ ctx, caller, path, body }) => {
  const b = body as any;
  const r = await ctx.store.read((tx) => visibleGitInstallation(tx, caller, path.installationId, 'admin', 'configuring a Git Sync installation'));
  const cfg = (b.providerConfiguration ?? {}) as Record<string, unknown>;
  if (b.provider === 'gitlab') {
    if (cfg.accessToken !== undefined)
      throw invalid('providerConfiguration.accessToken: this server never calls GitLab, so it keeps no GitLab token; leave it out (nothing was changed)');
    if (typeof cfg.customInstanceURL === 'string')
      throw invalid(
        `providerConfiguration.customInstanceURL: ${cfg.customInstanceURL}: this server does not call a GitLab instance's API; ` +
          'its projects are the repositories under its Git root (docs serve --git-root DIR)',
      );
  }
  const patch: InstallationPatch = { provider: b.provider };
  const id = b.provider === 'github' ? cfg.repositoryId : cfg.projectId;
  const field = b.provider === 'github' ? 'providerConfiguration.repositoryId' : 'providerConfiguration.projectId';
  let repo: LocalRepo | undefined;
  if (id !== undefined) repo = localRepoById(`${field}`, id as number, field);
  // The repository set before is looked up only when a branch is checked against it.
  else if (r.repository && typeof cfg.branch === 'string') repo = localRepo(what(r), ...(r.repository.split('/') as [string, string]));
  if (repo) patch.repository = repo.fullName;
  if (typeof cfg.branch === 'string') {
    if (!repo) throw invalid(`providerConfiguration.branch: installation ${r.id} has no repository yet: set ${field} with the branch`);
    fullRef(cfg.branch); // 400 for a ref that could leave refs/ ("refs/heads/../x")
    if (!(await hasBranch(repo, cfg.branch))) throw invalid(`providerConfiguration.branch: ${repo.fullName} has no branch ${cfg.branch}`);
    patch.branch = cfg.branch;
  }
  if (b.projectDirectory !== undefined) patch.projectDirectory = cleanDir('projectDirectory', b.projectDirectory);
  for (const k of ['commitMessageTemplate', 'previewExternalBranches', 'agentInstructions', 'priority'] as const) if (b[k] !== undefined) patch[k] = b[k];
  if (b.childInstallationProjectDirectories)
    patch.children = Object.fromEntries(
      Object.entries(b.childInstallationProjectDirectories as Record<string, string>).map(([k, v]) => [
        k,
        cleanDir(`childInstallationProjectDirectories.${k}`, v),
      ]),
    );
  await ctx.store.read((tx) => checkPatch(tx, r, patch));
  // The sync the spec queues, run while the request waits, for a space: `git` imports the
  // branch into the space, `gitbook` exports the space to it. A failed sync changes nothing here.
  const repository = patch.repository ?? r.repository;
  const branch = patch.branch ?? r.branch;
  if (patch.priority && r.target.type === 'space' && repository && branch) {
    const spaceId = r.target.space;
    const dir = patch.projectDirectory ?? r.projectDirectory;
    const common = { url: urlOf(repository), ref: branch, ...(dir ? { repoProjectDirectory: dir } : {}) };
    if (patch.priority === 'git') await importGitRepository.handler({ ctx, caller, path: { spaceId }, query: {}, body: common as any });
    else {
      const commitMessage = (patch.commitMessageTemplate ?? r.commitMessageTemplate ?? '').trim() || 'Update from docs';
      await exportToGitRepository.handler({ ctx, caller, path: { spaceId }, query: {}, body: { ...common, commitMessage } as any });
    }
  }
  const next = await ctx.store.write((tx) => {
    const now = visibleGitInstallation(tx, caller, path.installationId, 'admin', 'configuring a Git Sync installation');
    return applyPatch(tx, ctx, now, patch);
  });
  return { status: 200, body: presentGitInstallation(ctx, next) };
});

export const uninstallGitSyncInstallation = defineOperation('uninstallGitSyncInstallation', async ({ ctx, caller, path }) => {
  await ctx.store.write((tx) => uninstall(tx, visibleGitInstallation(tx, caller, path.installationId, 'admin', 'uninstalling a Git Sync installation')));
  return { status: 205 };
});

export const listGitHubRepositoriesForGitSyncInstallation = defineOperation('listGitHubRepositoriesForGitSyncInstallation', async ({ ctx, caller, path }) => {
  const r = await configurable(ctx, caller, path.installationId, 'github');
  return { status: 200, body: { items: await Promise.all(listLocalRepos(what(r)).map(listed)) } };
});

export const listGitHubRepoBranchesForGitSyncInstallation = defineOperation('listGitHubRepoBranchesForGitSyncInstallation', async ({ ctx, caller, path }) => {
  const r = await configurable(ctx, caller, path.installationId, 'github');
  return { status: 200, body: { items: await branchesOf(localRepo(what(r), path.accountName, path.repositoryName)) } };
});

export const getGitHubRepoFileForGitSyncInstallation = defineOperation('getGitHubRepoFileForGitSyncInstallation', async ({ ctx, caller, path, query }) => {
  const r = await configurable(ctx, caller, path.installationId, 'github');
  return { status: 200, body: await fileAt(localRepo(what(r), path.accountName, path.repositoryName), query.path, query.ref) };
});

export const listGitLabProjectsForGitSyncInstallation = defineOperation('listGitLabProjectsForGitSyncInstallation', async ({ ctx, caller, path }) => {
  const r = await configurable(ctx, caller, path.installationId, 'gitlab');
  return { status: 200, body: { items: await Promise.all(listLocalRepos(what(r)).map(listed)) } };
});

export const listGitLabProjectBranchesForGitSyncInstallation = defineOperation(
  'listGitLabProjectBranchesForGitSyncInstallation',
  async ({ ctx, caller, path }) => {
    const r = await configurable(ctx, caller, path.installationId, 'gitlab');
    return { status: 200, body: { items: await branchesOf(localRepoById(what(r), path.projectId)) } };
  },
);

export const getGitLabProjectFileForGitSyncInstallation = defineOperation(
  'getGitLabProjectFileForGitSyncInstallation',
  async ({ ctx, caller, path, query }) => {
    const r = await configurable(ctx, caller, path.installationId, 'gitlab');
    return { status: 200, body: await fileAt(localRepoById(what(r), path.projectId), query.path, query.ref) };
  },
);
