import { applyDefaultLevel, defaultLevelFlag } from '../_lib/content-flags.js';
import { chooseCollection } from '../_lib/pick.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateCollectionById',
  description: "Change a collection's title, description or default level",
  examples: [
    '<%= config.bin %> collections update szoY47EmGxQDFXEuua83 --title "User guides" --description "For end users"',
    '<%= config.bin %> collections update szoY47EmGxQDFXEuua83 --default-level edit',
  ],
  choose: { collectionId: chooseCollection },
  flags: { 'default-level': defaultLevelFlag },
  prepare: applyDefaultLevel,
});
