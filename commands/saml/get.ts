import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getOrganizationSAMLProviderById',
  description: 'Show a SAML provider, with the URLs to give the identity provider',
  orgFlag: true,
  examples: ['<%= config.bin %> saml get S4mLpR0v1d3rX9kQ2wEa', '<%= config.bin %> saml get S4mLpR0v1d3rX9kQ2wEa --json'],
});
