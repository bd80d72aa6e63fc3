import { spaceNamed } from '../_lib/names.js';
import { chooseSpace } from '../_lib/pick.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteSpaceById',
  description: 'Delete a space (restorable for 7 days, then removed for good)',
  examples: ['<%= config.bin %> spaces delete dHD9ZmkOPnfy9hWCsaQB', '<%= config.bin %> spaces delete dHD9ZmkOPnfy9hWCsaQB --yes'],
  choose: { spaceId: chooseSpace },
  confirm: async (p, _f, t) => `Delete ${await spaceNamed(t, p.spaceId)}? (it can be restored for 7 days)`,
  done: (_s, p) => `Deleted space ${p.spaceId}. Restore it within 7 days with: docs spaces restore ${p.spaceId}`,
  missing: (p) => `space ${p.spaceId} not found (or already deleted): nothing deleted`,
});
