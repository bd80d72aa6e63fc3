import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getOrganizationIntegrationStatus',
  description: 'Show whether an integration installed in an organization is active, pending or paused',
  examples: ['<%= config.bin %> integrations status slack', '<%= config.bin %> integrations status slack --org 6yZr3RyMqly3HeMx6Xkr --json'],
  orgFlag: true,
});
