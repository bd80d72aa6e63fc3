import { operationCommand } from '../../_lib/operation-command.js';
import { chooseCollection } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'removeUserFromCollection',
  description: "Remove a user's grant on a collection (their organization role still applies)",
  examples: ['<%= config.bin %> collections permissions remove szoY47EmGxQDFXEuua83 Xk2f9QmL0aTz7WcV1bNp'],
  choose: { collectionId: chooseCollection },
  done: 'Removed.',
  missing: (p) => `user ${p.userId} has no grant on collection ${p.collectionId}: nothing removed`,
});
