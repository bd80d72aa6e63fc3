import { operationCommand } from '../../_lib/operation-command.js';
import { chooseSpace } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'removeTeamFromSpace',
  description: "Remove a team's grant on a space",
  examples: ['<%= config.bin %> spaces permissions remove-team dHD9ZmkOPnfy9hWCsaQB T7gH2kLm9QpR4sVx8YzA'],
  choose: { spaceId: chooseSpace },
  done: 'Removed.',
  missing: (p) => `team ${p.teamId} has no grant on space ${p.spaceId}: nothing removed`,
});
