import { operationCommand } from '../_lib/operation-command.js';
import { chooseGitInstallation } from '../_lib/pick.js';

export default operationCommand({
  operationId: 'getGitLabProjectFileForGitSyncInstallation',
  description: 'Show a file of a project at a branch (name, path, blob sha, size) for a GitLab Git Sync installation',
  examples: ['<%= config.bin %> git-sync project-file Ab3dE5gH7jK9mN1pQ2rS 183748211234 --path README.md --ref refs/heads/main'],
  choose: { installationId: chooseGitInstallation },
});
