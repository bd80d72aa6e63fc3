import { collectionNamed } from '../_lib/names.js';
import { chooseCollection } from '../_lib/pick.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteCollectionById',
  description: 'Delete a collection, its collections and (restorably, for 7 days) its spaces',
  examples: ['<%= config.bin %> collections delete szoY47EmGxQDFXEuua83', '<%= config.bin %> collections delete szoY47EmGxQDFXEuua83 --yes'],
  choose: { collectionId: chooseCollection },
  confirm: async (p, _f, t) => `Delete ${await collectionNamed(t, p.collectionId)}? (its spaces can be restored for 7 days)`,
  done: (_s, p) =>
    `Deleted collection ${p.collectionId}. Its spaces can be restored within 7 days: docs spaces list --deleted, then docs spaces restore SPACE_ID`,
  missing: (p) => `collection ${p.collectionId} not found: nothing deleted`,
});
