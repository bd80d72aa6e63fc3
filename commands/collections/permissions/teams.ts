import { operationCommand } from '../../_lib/operation-command.js';
import { chooseCollection } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'listTeamPermissionsInCollection',
  description: 'List the teams given a role on a collection',
  examples: ['<%= config.bin %> collections permissions teams szoY47EmGxQDFXEuua83'],
  choose: { collectionId: chooseCollection },
  columns: ['team.id', 'team.title', 'team.members', 'permission'],
});
