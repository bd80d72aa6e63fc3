import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listOrganizationIntegrations',
  description: 'List the integrations installed in an organization',
  examples: ['<%= config.bin %> integrations installed', '<%= config.bin %> integrations installed --org 6yZr3RyMqly3HeMx6Xkr --search slack --json'],
  orgFlag: true,
  columns: ['name', 'title', 'target', 'visibility'],
});
