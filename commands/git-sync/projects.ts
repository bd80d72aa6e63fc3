import { operationCommand } from '../_lib/operation-command.js';
import { chooseGitInstallation } from '../_lib/pick.js';

export default operationCommand({
  operationId: 'listGitLabProjectsForGitSyncInstallation',
  description: "List the projects a GitLab Git Sync installation may use: the repositories under the server's --git-root",
  examples: ['<%= config.bin %> git-sync projects Ab3dE5gH7jK9mN1pQ2rS', '<%= config.bin %> git-sync projects Ab3dE5gH7jK9mN1pQ2rS --json'],
  choose: { installationId: chooseGitInstallation },
  columns: ['id', 'fullName', 'defaultBranch'],
});
