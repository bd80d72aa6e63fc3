import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getIntegrationSiteInstallation',
  description: 'Show an installation on one site: its own configuration and external ids',
  examples: [
    '<%= config.bin %> integrations sites get slack Hk3sP0qLmZ8xWv2nR4tY site_Ab3dE5gH7jK9mN1p',
    '<%= config.bin %> integrations sites get slack Hk3sP0qLmZ8xWv2nR4tY site_Ab3dE5gH7jK9mN1p --json',
  ],
});
