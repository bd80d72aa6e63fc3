import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSAMLProvidersInOrganizationById',
  description: 'List SAML providers (admins)',
  orgFlag: true,
  columns: ['id', 'label', 'status', 'defaultRole', 'service.startURL'],
  examples: ['<%= config.bin %> saml list', '<%= config.bin %> saml list --org r55bjk0VeuQGpJpb7mcG --json'],
});
