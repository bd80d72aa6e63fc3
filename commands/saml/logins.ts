import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSSOProviderLoginsInOrganization',
  description: 'List the SSO sign-in choices of the organization',
  orgFlag: true,
  columns: ['id', 'label', 'startURL'],
  examples: ['<%= config.bin %> saml logins', '<%= config.bin %> saml logins --org r55bjk0VeuQGpJpb7mcG --json'],
});
