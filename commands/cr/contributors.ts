import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getContributorsByChangeRequestId',
  description: 'List the users who edited a change request',
  examples: ['<%= config.bin %> cr contributors dHD9ZmkOPnfy9hWCsaQB 4', '<%= config.bin %> cr contributors dHD9ZmkOPnfy9hWCsaQB 4 --json'],
  columns: ['user.id', 'user.displayName', 'actionType', 'count', 'updatedAt'],
});
