import { applyPosition, positionFlags } from '../_lib/content-flags.js';
import { chooseSpace } from '../_lib/pick.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'moveSpace',
  description: 'Move a space into a collection, to the root, or before/after a sibling space',
  examples: [
    '<%= config.bin %> spaces move dHD9ZmkOPnfy9hWCsaQB --parent szoY47EmGxQDFXEuua83',
    '<%= config.bin %> spaces move dHD9ZmkOPnfy9hWCsaQB --parent szoY47EmGxQDFXEuua83 --before Lk2PqR8sTuVwXyZ0aBcD',
    '<%= config.bin %> spaces move dHD9ZmkOPnfy9hWCsaQB --after Lk2PqR8sTuVwXyZ0aBcD',
    '<%= config.bin %> spaces move dHD9ZmkOPnfy9hWCsaQB --root',
  ],
  choose: { spaceId: chooseSpace },
  flags: positionFlags('space'),
  prepare: applyPosition('space'),
});
