import { chooseCollection } from '../_lib/pick.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'transferCollection',
  description: 'Move a collection, with everything in it, to another organization (admin in both)',
  examples: ['<%= config.bin %> collections transfer szoY47EmGxQDFXEuua83 --organization r55bjk0VeuQGpJpb7mcG'],
  choose: { collectionId: chooseCollection },
});
