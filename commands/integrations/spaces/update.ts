import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateIntegrationSpaceInstallation',
  description: 'Change an installation’s own external ids or configuration on one space',
  examples: [
    '<%= config.bin %> integrations spaces update slack Hk3sP0qLmZ8xWv2nR4tY Ab3dE5gH7jK9mN1pQ2rS --external-ids repo-1',
    '<%= config.bin %> integrations spaces update slack Hk3sP0qLmZ8xWv2nR4tY Ab3dE5gH7jK9mN1pQ2rS --configuration \'{"branch":"main"}\' --json',
  ],
  prepare: (_req, _flags, transport) => transport.runWorkers?.(),
});
