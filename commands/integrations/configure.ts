import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateIntegrationInstallation',
  description: 'Change an installation: configuration, external ids, space and site selection',
  examples: [
    `<%= config.bin %> integrations configure slack Hk3sP0qLmZ8xWv2nR4tY --configuration '{"channel":"#docs"}'`,
    '<%= config.bin %> integrations configure slack Hk3sP0qLmZ8xWv2nR4tY --external-ids team-42 --space-selection selected',
  ],
  prepare: (_req, _flags, transport) => transport.runWorkers?.(),
});
