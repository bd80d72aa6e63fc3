import { operationCommand } from '../../_lib/operation-command.js';
import { chooseSpace } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'listPermissionsAggregateInSpace',
  description: 'Everyone who can reach a space, with the level they have there (role, defaults and grants together)',
  examples: [
    '<%= config.bin %> spaces permissions effective dHD9ZmkOPnfy9hWCsaQB',
    '<%= config.bin %> spaces permissions effective dHD9ZmkOPnfy9hWCsaQB --role edit --json',
  ],
  choose: { spaceId: chooseSpace },
  columns: ['user.id', 'user.displayName', 'permission'],
});
