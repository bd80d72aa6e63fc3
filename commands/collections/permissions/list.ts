import { operationCommand } from '../../_lib/operation-command.js';
import { chooseCollection } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'listUserPermissionsInCollection',
  description: 'List the users given a role on a collection',
  examples: [
    '<%= config.bin %> collections permissions list szoY47EmGxQDFXEuua83',
    '<%= config.bin %> collections permissions list szoY47EmGxQDFXEuua83 --json',
  ],
  choose: { collectionId: chooseCollection },
  columns: ['user.id', 'user.displayName', 'user.email', 'permission'],
});
