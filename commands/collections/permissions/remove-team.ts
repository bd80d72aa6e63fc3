import { operationCommand } from '../../_lib/operation-command.js';
import { chooseCollection } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'removeTeamFromCollection',
  description: "Remove a team's grant on a collection",
  examples: ['<%= config.bin %> collections permissions remove-team szoY47EmGxQDFXEuua83 T7gH2kLm9QpR4sVx8YzA'],
  choose: { collectionId: chooseCollection },
  done: 'Removed.',
  missing: (p) => `team ${p.teamId} has no grant on collection ${p.collectionId}: nothing removed`,
});
