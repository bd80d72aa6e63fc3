import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listIntegrationSpaceInstallations',
  description: 'List every space an integration is installed on, across its installations you can see',
  examples: ['<%= config.bin %> integrations space-installations slack', '<%= config.bin %> integrations space-installations slack --json'],
  columns: ['space', 'installation', 'status'],
});
