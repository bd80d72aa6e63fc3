import { operationCommand } from '../../_lib/operation-command.js';
import { chooseSpace } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'listTeamPermissionsInSpace',
  description: 'List the teams given a role on a space',
  examples: ['<%= config.bin %> spaces permissions teams dHD9ZmkOPnfy9hWCsaQB'],
  choose: { spaceId: chooseSpace },
  columns: ['team.id', 'team.title', 'team.members', 'permission'],
});
