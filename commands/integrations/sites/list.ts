import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listIntegrationInstallationSites',
  description: 'List the sites an installation is on (every one with selection all; the chosen ones with selected)',
  examples: [
    '<%= config.bin %> integrations sites list slack Hk3sP0qLmZ8xWv2nR4tY',
    '<%= config.bin %> integrations sites list slack Hk3sP0qLmZ8xWv2nR4tY --extended --json',
  ],
  columns: ['site', 'status', 'externalIds'],
});
