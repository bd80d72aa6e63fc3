import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listIntegrationInstallationSpaces',
  description: 'List the spaces an installation is on (every one with selection all; the chosen ones with selected)',
  examples: [
    '<%= config.bin %> integrations spaces list slack Hk3sP0qLmZ8xWv2nR4tY',
    '<%= config.bin %> integrations spaces list slack Hk3sP0qLmZ8xWv2nR4tY --extended --json',
  ],
  columns: ['space', 'status', 'externalIds'],
});
