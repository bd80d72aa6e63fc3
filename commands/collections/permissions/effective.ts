import { operationCommand } from '../../_lib/operation-command.js';
import { chooseCollection } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'listPermissionsAggregateInCollection',
  description: 'Everyone who can reach a collection, with the level they have there (role, defaults and grants together)',
  examples: [
    '<%= config.bin %> collections permissions effective szoY47EmGxQDFXEuua83',
    '<%= config.bin %> collections permissions effective szoY47EmGxQDFXEuua83 --role edit --json',
  ],
  choose: { collectionId: chooseCollection },
  columns: ['user.id', 'user.displayName', 'permission'],
});
