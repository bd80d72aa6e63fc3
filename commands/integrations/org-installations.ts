import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listOrganizationInstallations',
  description: 'List the installations in an organization with their integrations (admins)',
  examples: ['<%= config.bin %> integrations org-installations', '<%= config.bin %> integrations org-installations --org 6yZr3RyMqly3HeMx6Xkr --json'],
  orgFlag: true,
  columns: ['integration.name', 'installation.id', 'installation.status', 'installation.space_selection', 'installation.site_selection'],
});
