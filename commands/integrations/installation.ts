import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getIntegrationInstallationById',
  description: 'Show one installation of an integration: where it is installed, its selections and configuration',
  examples: [
    '<%= config.bin %> integrations installation slack Hk3sP0qLmZ8xWv2nR4tY',
    '<%= config.bin %> integrations installation slack Hk3sP0qLmZ8xWv2nR4tY --json',
  ],
});
