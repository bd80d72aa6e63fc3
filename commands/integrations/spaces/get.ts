import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getIntegrationSpaceInstallation',
  description: 'Show an installation on one space: its own configuration and external ids',
  examples: [
    '<%= config.bin %> integrations spaces get slack Hk3sP0qLmZ8xWv2nR4tY Ab3dE5gH7jK9mN1pQ2rS',
    '<%= config.bin %> integrations spaces get slack Hk3sP0qLmZ8xWv2nR4tY Ab3dE5gH7jK9mN1pQ2rS --json',
  ],
});
