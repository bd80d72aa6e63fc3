import { operationCommand } from '../../_lib/operation-command.js';
import { chooseSpace } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'listUserPermissionsInSpace',
  description: 'List the users given a role on a space',
  examples: ['<%= config.bin %> spaces permissions list dHD9ZmkOPnfy9hWCsaQB', '<%= config.bin %> spaces permissions list dHD9ZmkOPnfy9hWCsaQB --json'],
  choose: { spaceId: chooseSpace },
  columns: ['user.id', 'user.displayName', 'user.email', 'permission'],
});
