import { chooseSpace } from '../_lib/pick.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getSpaceById',
  description: 'Show one space',
  examples: [
    '<%= config.bin %> spaces get dHD9ZmkOPnfy9hWCsaQB',
    '<%= config.bin %> spaces get dHD9ZmkOPnfy9hWCsaQB --share-key k3y --json',
    '<%= config.bin %> spaces get   # pick one from a list',
  ],
  choose: { spaceId: chooseSpace },
});
