import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteLegacyGitInstallation',
  description: "Remove a space's legacy Git Sync installation (GitBook's, before integrations: none exists on this server)",
  examples: ['<%= config.bin %> spaces git remove-legacy Ab3dE5gH7jK9mN1pQ2rS', '<%= config.bin %> spaces git remove-legacy Ab3dE5gH7jK9mN1pQ2rS --json'],
  done: (status, p) =>
    status === 205 ? `✓ Removed the legacy Git installation of space ${p.spaceId}` : `No legacy Git installation on space ${p.spaceId}: nothing to remove`,
});
