import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateOrganizationSAMLProvider',
  description: 'Change a SAML provider (admins)',
  orgFlag: true,
  examples: [
    '<%= config.bin %> saml update S4mLpR0v1d3rX9kQ2wEa --label "Okta EU"',
    '<%= config.bin %> saml update S4mLpR0v1d3rX9kQ2wEa --default-team T7gH2kLm9QpR4sVx8YzA --default-role guest',
  ],
});
