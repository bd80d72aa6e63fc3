import { operationCommand } from '../../_lib/operation-command.js';
import { chooseSpace } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'removeUserFromSpace',
  description: "Remove a user's grant on a space (their organization role still applies)",
  examples: ['<%= config.bin %> spaces permissions remove dHD9ZmkOPnfy9hWCsaQB Xk2f9QmL0aTz7WcV1bNp'],
  choose: { spaceId: chooseSpace },
  done: 'Removed.',
  missing: (p) => `user ${p.userId} has no grant on space ${p.spaceId}: nothing removed`,
});
