import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'createOrganizationSAMLProvider',
  description: 'Add a SAML provider (admins)',
  orgFlag: true,
  examples: [
    '<%= config.bin %> saml create --label Okta',
    '<%= config.bin %> saml create --label Okta --entity-id http://www.okta.com/exk1 --sso-url https://acme.okta.com/app/sso/saml --certificate "$(cat okta.pem)" --default-role edit',
  ],
});
