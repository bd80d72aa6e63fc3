import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listIntegrationSiteInstallations',
  description: 'List every site an integration is installed on, across its installations you can see',
  examples: ['<%= config.bin %> integrations site-installations slack', '<%= config.bin %> integrations site-installations slack --json'],
  columns: ['site', 'installation', 'status'],
});
