import { operationCommand } from '../../_lib/operation-command.js';
import { chooseSpace } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'updateTeamPermissionInSpace',
  description: "Change a team's role on a space",
  examples: ['<%= config.bin %> spaces permissions update-team dHD9ZmkOPnfy9hWCsaQB T7gH2kLm9QpR4sVx8YzA --role comment'],
  choose: { spaceId: chooseSpace },
  done: 'Updated.',
});
