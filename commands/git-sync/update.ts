import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import { numberIn, operationCommand } from '../_lib/operation-command.js';
import { chooseGitInstallation } from '../_lib/pick.js';

const id = (v: string) => Promise.resolve(numberIn({ minimum: 0 }, 'integer', v));

export default operationCommand({
  operationId: 'updateGitSyncInstallationById',
  description:
    "Configure a Git Sync installation: its repository (under the server's --git-root) and branch; with --priority on a space, import (git) or export (gitbook) at once",
  examples: [
    '<%= config.bin %> git-sync update Ab3dE5gH7jK9mN1pQ2rS --repository-id 183748211234 --branch refs/heads/main',
    '<%= config.bin %> git-sync update Ab3dE5gH7jK9mN1pQ2rS --branch refs/heads/main --priority git',
    '<%= config.bin %> git-sync update Ab3dE5gH7jK9mN1pQ2rS --provider gitlab --project-id 183748211234 --project-directory docs --json',
  ],
  choose: { installationId: chooseGitInstallation },
  flags: {
    provider: Flags.string({ description: "The provider (default: the installation's)", options: ['github', 'gitlab'] }),
    'repository-id': Flags.string({ description: 'GitHub: the repository (its id, from git-sync repos)', parse: id as any, exclusive: ['project-id'] }),
    'project-id': Flags.string({ description: 'GitLab: the project (its id, from git-sync projects)', parse: id as any }),
    branch: Flags.string({ description: 'The branch to sync with (refs/heads/<name>; a bare name is taken as one)' }),
  },
  summary: (b) =>
    `✓ Updated Git Sync installation ${b.id}${b.repositoryConnection ? `: ${b.repositoryConnection.repositoryName}` : ''}${b.repositoryRef ? ` ${b.repositoryRef.name}` : ''} [${b.status}]${b.priority ? ` (priority ${b.priority})` : ''}`,
  prepare: async (req, flags, transport) => {
    let provider = flags.provider ?? req.body.provider;
    if (!provider) {
      const inst = await transport.call('getGitSyncInstallationById', { path: { installationId: req.path.installationId! } });
      provider = (inst.body as { provider: string }).provider;
    }
    const config: Record<string, unknown> = { ...(req.body.providerConfiguration ?? {}) };
    if (flags['repository-id'] !== undefined) config[provider === 'gitlab' ? 'projectId' : 'repositoryId'] = flags['repository-id'];
    if (flags['project-id'] !== undefined) {
      if (provider !== 'gitlab') throw new DocsError('invalid', "--project-id: a GitLab installation's; use --repository-id for GitHub");
      config.projectId = flags['project-id'];
    }
    if (flags.branch !== undefined) config.branch = flags.branch.startsWith('refs/') ? flags.branch : `refs/heads/${flags.branch}`;
    req.body = { ...req.body, provider, providerConfiguration: config };
  },
});
