import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listTeamMembersInOrganizationById',
  description: 'List the members of a team',
  orgFlag: true,
  columns: ['organization.id', 'organization.user.displayName', 'organization.user.email', 'team.role'],
  examples: ['<%= config.bin %> teams members list T7gH2kLm9QpR4sVx8YzA', '<%= config.bin %> teams members list T7gH2kLm9QpR4sVx8YzA --json'],
});
