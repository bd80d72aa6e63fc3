import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'installIntegrationOnSpace',
  description: 'Install an integration on one space of its installation’s organization (emits space_installation_setup)',
  examples: [
    '<%= config.bin %> integrations spaces install slack Hk3sP0qLmZ8xWv2nR4tY --space Ab3dE5gH7jK9mN1pQ2rS',
    '<%= config.bin %> integrations spaces install slack Hk3sP0qLmZ8xWv2nR4tY --space Ab3dE5gH7jK9mN1pQ2rS --json',
  ],
  prepare: (_req, _flags, transport) => transport.runWorkers?.(),
});
