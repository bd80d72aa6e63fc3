import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateMembersInOrganizationTeam',
  description: 'Add, remove and change team members in one change',
  orgFlag: true,
  done: 'Team members updated.',
  examples: [
    '<%= config.bin %> teams members update T7gH2kLm9QpR4sVx8YzA --add Xk2f9QmL0aTz7WcV1bNp --add ann@acme.com --remove bob@acme.com',
    '<%= config.bin %> teams members update T7gH2kLm9QpR4sVx8YzA --memberships \'{"Xk2f9QmL0aTz7WcV1bNp":{"role":"owner"}}\'',
  ],
});
