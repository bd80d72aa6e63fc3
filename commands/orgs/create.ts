import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'createOrganization',
  description: 'Create an organization (you become its admin)',
  examples: ['<%= config.bin %> orgs create --title "Acme Docs"', '<%= config.bin %> orgs create --title "Acme Docs" --email-domains acme.com --json'],
});
