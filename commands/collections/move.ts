import { applyPosition, positionFlags } from '../_lib/content-flags.js';
import { chooseCollection } from '../_lib/pick.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'moveCollection',
  description: 'Move a collection into another collection, to the root, or before/after a sibling collection',
  examples: [
    '<%= config.bin %> collections move szoY47EmGxQDFXEuua83 --parent Qe3Wk1cBvRjTqXM2pLd8',
    '<%= config.bin %> collections move szoY47EmGxQDFXEuua83 --root --before Qe3Wk1cBvRjTqXM2pLd8',
    '<%= config.bin %> collections move szoY47EmGxQDFXEuua83 --after Qe3Wk1cBvRjTqXM2pLd8',
  ],
  choose: { collectionId: chooseCollection },
  flags: positionFlags('collection'),
  prepare: applyPosition('collection'),
});
