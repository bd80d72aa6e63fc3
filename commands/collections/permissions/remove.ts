import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../../_lib/operation-command.js';
import { chooseCollection } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'updateUserPermissionInCollection',
  description: "Remove a user's grant on a collection (their organization role still applies)",
  examples: ['<%= config.bin %> collections permissions remove szoY47EmGxQDFXEuua83 Xk2f9QmL0aTz7WcV1bNp'],
  choose: { collectionId: chooseCollection },
  done: 'Removed.',
  flags: { role: Flags.string({ hidden: true }) },
  prepare: (req) => {
    req.body = { role: null };
  },
});
