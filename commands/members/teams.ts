import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listTeamsForOrganizationMember',
  description: "List a member's teams",
  orgFlag: true,
  columns: ['team.id', 'team.title', 'member.role', 'team.members'],
  examples: ['<%= config.bin %> members teams Xk2f9QmL0aTz7WcV1bNp', '<%= config.bin %> members teams Xk2f9QmL0aTz7WcV1bNp --title design --json'],
});
