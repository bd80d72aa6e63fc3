import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listTeamPermissionsInSite',
  description: 'List the teams given a role on a site',
  examples: ['<%= config.bin %> sites permissions teams szK9Qp2mTtR4bLx0aVn1'],
  orgFlag: true,
  columns: ['team.id', 'team.title', 'team.members', 'permission'],
});
