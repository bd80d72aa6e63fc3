import { operationCommand } from '../_lib/operation-command.js';
import { chooseGitInstallation } from '../_lib/pick.js';

export default operationCommand({
  operationId: 'listGitHubRepositoriesForGitSyncInstallation',
  description: "List the repositories a GitHub Git Sync installation may use: those under the server's --git-root (account/name)",
  examples: ['<%= config.bin %> git-sync repos Ab3dE5gH7jK9mN1pQ2rS', '<%= config.bin %> git-sync repos Ab3dE5gH7jK9mN1pQ2rS --json'],
  choose: { installationId: chooseGitInstallation },
  columns: ['id', 'fullName', 'defaultBranch'],
});
