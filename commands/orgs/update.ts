import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateOrganizationById',
  description: 'Change an organization (admins)',
  examples: [
    '<%= config.bin %> orgs update r55bjk0VeuQGpJpb7mcG --title "Acme Docs" --hostname acme-docs',
    '<%= config.bin %> orgs update r55bjk0VeuQGpJpb7mcG --email-domains acme.com --email-domains acme.io --default-role edit',
    '<%= config.bin %> orgs update r55bjk0VeuQGpJpb7mcG --no-invite-links --json',
  ],
});
