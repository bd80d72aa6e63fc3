import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'installIntegrationOnSite',
  description: 'Install an integration on one site of its installation’s organization (emits site_installation_setup)',
  examples: [
    '<%= config.bin %> integrations sites install slack Hk3sP0qLmZ8xWv2nR4tY --site-id site_Ab3dE5gH7jK9mN1p',
    '<%= config.bin %> integrations sites install slack Hk3sP0qLmZ8xWv2nR4tY --site-id site_Ab3dE5gH7jK9mN1p --json',
  ],
  prepare: (_req, _flags, transport) => transport.runWorkers?.(),
});
