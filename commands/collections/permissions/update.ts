import { operationCommand } from '../../_lib/operation-command.js';
import { chooseCollection } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'updateUserPermissionInCollection',
  description: "Change a user's role on a collection",
  examples: ['<%= config.bin %> collections permissions update szoY47EmGxQDFXEuua83 Xk2f9QmL0aTz7WcV1bNp --role review'],
  choose: { collectionId: chooseCollection },
  done: 'Updated.',
});
