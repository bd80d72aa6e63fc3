import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listIntegrationInstallations',
  description: 'List the installations of an integration you can see (yours as an admin; all of them as its owner)',
  examples: ['<%= config.bin %> integrations installations slack', '<%= config.bin %> integrations installations slack --external-id team-42 --json'],
  columns: ['id', 'target.organization', 'status', 'spaces', 'space_selection', 'site_selection', 'createdAt'],
});
