import { operationCommand } from '../_lib/operation-command.js';
import { chooseGitInstallation } from '../_lib/pick.js';

export default operationCommand({
  operationId: 'getGitSyncInstallationById',
  description: 'Show a Git Sync installation: provider, target, repository and branch, status',
  examples: ['<%= config.bin %> git-sync get Ab3dE5gH7jK9mN1pQ2rS', '<%= config.bin %> git-sync get Ab3dE5gH7jK9mN1pQ2rS --json'],
  choose: { installationId: chooseGitInstallation },
});
