import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';
import { chooseGitInstallation } from '../_lib/pick.js';

export default operationCommand({
  operationId: 'getGitLabProjectFileForGitSyncInstallation',
  description: 'Show a file of a project at a branch (name, path, blob sha, size) for a GitLab Git Sync installation',
  examples: ['<%= config.bin %> git-sync project-file Ab3dE5gH7jK9mN1pQ2rS 183748211234 --path README.md --ref refs/heads/main'],
  choose: { installationId: chooseGitInstallation },
  flags: {
    path: Flags.string({ description: "The file's path in the repository (e.g. docs/setup.md)", required: true }),
    ref: Flags.string({ description: 'The branch to read it at (refs/heads/main; a bare name is taken as one)', required: true }),
  },
});
