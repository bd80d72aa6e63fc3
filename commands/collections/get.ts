import { chooseCollection } from '../_lib/pick.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getCollectionById',
  description: 'Show one collection',
  examples: ['<%= config.bin %> collections get szoY47EmGxQDFXEuua83', '<%= config.bin %> collections get szoY47EmGxQDFXEuua83 --json'],
  choose: { collectionId: chooseCollection },
});
