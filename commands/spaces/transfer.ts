import { chooseSpace } from '../_lib/pick.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'transferSpace',
  description: 'Move a space to the root of another organization (admin in both)',
  examples: ['<%= config.bin %> spaces transfer dHD9ZmkOPnfy9hWCsaQB --organization r55bjk0VeuQGpJpb7mcG'],
  choose: { spaceId: chooseSpace },
});
