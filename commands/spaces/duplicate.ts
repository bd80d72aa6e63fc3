import { chooseSpace } from '../_lib/pick.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'duplicateSpace',
  description: 'Copy a space with its content, right after the original',
  examples: ['<%= config.bin %> spaces duplicate dHD9ZmkOPnfy9hWCsaQB', '<%= config.bin %> spaces duplicate dHD9ZmkOPnfy9hWCsaQB --json'],
  choose: { spaceId: chooseSpace },
});
