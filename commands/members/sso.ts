import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'setUserAsSSOMemberForOrganization',
  description: 'Make a user an SSO member of the organization (admins)',
  orgFlag: true,
  examples: ['<%= config.bin %> members sso Xk2f9QmL0aTz7WcV1bNp', '<%= config.bin %> members sso Xk2f9QmL0aTz7WcV1bNp --org r55bjk0VeuQGpJpb7mcG --json'],
});
