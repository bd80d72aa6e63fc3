import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'addMemberToOrganizationTeamById',
  description: 'Add a member to a team (or change their team role)',
  orgFlag: true,
  done: 'Added.',
  examples: [
    '<%= config.bin %> teams members add T7gH2kLm9QpR4sVx8YzA Xk2f9QmL0aTz7WcV1bNp',
    '<%= config.bin %> teams members add T7gH2kLm9QpR4sVx8YzA Xk2f9QmL0aTz7WcV1bNp --role owner',
  ],
});
