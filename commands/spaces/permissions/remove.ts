import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../../_lib/operation-command.js';
import { chooseSpace } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'updateUserPermissionInSpace',
  description: "Remove a user's grant on a space (their organization role still applies)",
  examples: ['<%= config.bin %> spaces permissions remove dHD9ZmkOPnfy9hWCsaQB Xk2f9QmL0aTz7WcV1bNp'],
  choose: { spaceId: chooseSpace },
  done: 'Removed.',
  flags: { role: Flags.string({ hidden: true }) },
  prepare: (req) => {
    req.body = { role: null };
  },
});
