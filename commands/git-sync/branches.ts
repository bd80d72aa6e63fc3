import { operationCommand } from '../_lib/operation-command.js';
import { chooseGitInstallation } from '../_lib/pick.js';

export default operationCommand({
  operationId: 'listGitHubRepoBranchesForGitSyncInstallation',
  description: 'List the branches of a repository a GitHub Git Sync installation may use',
  examples: [
    '<%= config.bin %> git-sync branches Ab3dE5gH7jK9mN1pQ2rS acme handbook',
    '<%= config.bin %> git-sync branches Ab3dE5gH7jK9mN1pQ2rS _ handbook --json',
  ],
  choose: { installationId: chooseGitInstallation },
  columns: ['name', 'ref'],
});
