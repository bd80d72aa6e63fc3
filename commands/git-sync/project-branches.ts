import { operationCommand } from '../_lib/operation-command.js';
import { chooseGitInstallation } from '../_lib/pick.js';

export default operationCommand({
  operationId: 'listGitLabProjectBranchesForGitSyncInstallation',
  description: 'List the branches of a project a GitLab Git Sync installation may use',
  examples: ['<%= config.bin %> git-sync project-branches Ab3dE5gH7jK9mN1pQ2rS 183748211234'],
  choose: { installationId: chooseGitInstallation },
  columns: ['name', 'ref'],
});
