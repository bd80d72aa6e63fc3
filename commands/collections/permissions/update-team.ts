import { operationCommand } from '../../_lib/operation-command.js';
import { chooseCollection } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'updateTeamPermissionInCollection',
  description: "Change a team's role on a collection",
  examples: ['<%= config.bin %> collections permissions update-team szoY47EmGxQDFXEuua83 T7gH2kLm9QpR4sVx8YzA --role comment'],
  choose: { collectionId: chooseCollection },
  done: 'Updated.',
});
