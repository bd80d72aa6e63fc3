import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';
import { chooseGitInstallation } from '../_lib/pick.js';

export default operationCommand({
  operationId: 'getGitHubRepoFileForGitSyncInstallation',
  description: 'Show a file of a repository at a branch (name, path, blob sha, size) for a GitHub Git Sync installation',
  examples: ['<%= config.bin %> git-sync file Ab3dE5gH7jK9mN1pQ2rS acme handbook --path gitbook-docs.yaml --ref refs/heads/main'],
  choose: { installationId: chooseGitInstallation },
  flags: {
    path: Flags.string({ description: "The file's path in the repository (e.g. docs/setup.md)", required: true }),
    ref: Flags.string({ description: 'The branch to read it at (refs/heads/main; a bare name is taken as one)', required: true }),
  },
});
