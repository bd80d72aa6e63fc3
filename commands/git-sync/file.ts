import { operationCommand } from '../_lib/operation-command.js';
import { chooseGitInstallation } from '../_lib/pick.js';

export default operationCommand({
  operationId: 'getGitHubRepoFileForGitSyncInstallation',
  description: 'Show a file of a repository at a branch (name, path, blob sha, size) for a GitHub Git Sync installation',
  examples: ['<%= config.bin %> git-sync file Ab3dE5gH7jK9mN1pQ2rS acme handbook --path gitbook-docs.yaml --ref refs/heads/main'],
  choose: { installationId: chooseGitInstallation },
});
