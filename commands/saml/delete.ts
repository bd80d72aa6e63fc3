import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteOrganizationSAMLProvider',
  description: 'Delete a SAML provider (admins)',
  orgFlag: true,
  confirm: (p) => `Delete SAML provider ${p.samlProviderId}?`,
  done: (status) => (status === 205 ? 'Deleted.' : 'Nothing to do: no such SAML provider.'),
  examples: [
    '<%= config.bin %> saml delete S4mLpR0v1d3rX9kQ2wEa --yes',
  ],
});
