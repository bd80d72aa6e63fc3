import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getIntegrationByName',
  description: 'Show an integration',
  examples: ['<%= config.bin %> integrations get slack', '<%= config.bin %> integrations get slack --json'],
});
