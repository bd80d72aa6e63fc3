import { chooseCollection } from '../_lib/pick.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSpacesInCollectionById',
  description: 'List the spaces directly in a collection',
  examples: ['<%= config.bin %> collections spaces szoY47EmGxQDFXEuua83', '<%= config.bin %> collections spaces szoY47EmGxQDFXEuua83 --json'],
  columns: ['id', 'title', 'visibility', 'updatedAt'],
  choose: { collectionId: chooseCollection },
});
