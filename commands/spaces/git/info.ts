import { operationCommand } from '../../_lib/operation-command.js';
import { chooseSpace } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'getSpaceGitInfo',
  description: "Show a space's last Git sync: repository, ref, direction, how it ended, the commit",
  examples: ['<%= config.bin %> spaces git info dHD9ZmkOPnfy9hWCsaQB', '<%= config.bin %> spaces git info dHD9ZmkOPnfy9hWCsaQB --json'],
  choose: { spaceId: chooseSpace },
});
