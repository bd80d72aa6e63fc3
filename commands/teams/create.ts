import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'createOrganizationTeam',
  description: 'Create a team (members with the create role and up)',
  orgFlag: true,
  examples: [
    '<%= config.bin %> teams create --title Engineering',
    '<%= config.bin %> teams create --title Design --members Xk2f9QmL0aTz7WcV1bNp --members ann@acme.com --json',
  ],
});
