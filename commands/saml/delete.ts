import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteOrganizationSAMLProvider',
  description: 'Delete a SAML provider (admins)',
  orgFlag: true,
  confirm: (p) => `Delete SAML provider ${p.samlProviderId}?`,
  done: (_s, p) => `Deleted SAML provider ${p.samlProviderId} (not restorable).`,
  missing: (p) => `SAML provider ${p.samlProviderId} not found: nothing deleted`,
  examples: ['<%= config.bin %> saml delete S4mLpR0v1d3rX9kQ2wEa --yes'],
});
