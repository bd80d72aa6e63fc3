import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'uninstallIntegration',
  description: 'Uninstall an integration (emits an installation_deleted event)',
  examples: [
    '<%= config.bin %> integrations uninstall slack Hk3sP0qLmZ8xWv2nR4tY',
    '<%= config.bin %> integrations uninstall slack Hk3sP0qLmZ8xWv2nR4tY --yes',
  ],
  confirm: (path) => `Uninstall ${path.integrationName} (installation ${path.installationId})?`,
  done: (_s, p) => `Uninstalled ${p.integrationName} (installation ${p.installationId}). Install it again with: docs integrations install ${p.integrationName}`,
  missing: (p) => `installation ${p.installationId} of ${p.integrationName} not found: nothing changed`,
  prepare: (_req, _flags, transport) => transport.runWorkers?.(),
});
