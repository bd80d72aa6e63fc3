import { operationCommand } from '../../_lib/operation-command.js';
import { chooseSpace } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'updateUserPermissionInSpace',
  description: "Change a user's role on a space",
  examples: ['<%= config.bin %> spaces permissions update dHD9ZmkOPnfy9hWCsaQB Xk2f9QmL0aTz7WcV1bNp --role review'],
  choose: { spaceId: chooseSpace },
  done: 'Updated.',
});
