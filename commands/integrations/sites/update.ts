import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateIntegrationSiteInstallation',
  description: 'Change an installation’s own external ids or configuration on one site',
  examples: [
    '<%= config.bin %> integrations sites update slack Hk3sP0qLmZ8xWv2nR4tY site_Ab3dE5gH7jK9mN1p --external-ids repo-1',
    '<%= config.bin %> integrations sites update slack Hk3sP0qLmZ8xWv2nR4tY site_Ab3dE5gH7jK9mN1p --configuration \'{"branch":"main"}\' --json',
  ],
  prepare: (_req, _flags, transport) => transport.runWorkers?.(),
});
