import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getChangeRequestById',
  description: 'Show a change request (by number or id)',
  examples: ['<%= config.bin %> cr get dHD9ZmkOPnfy9hWCsaQB 4', '<%= config.bin %> cr get dHD9ZmkOPnfy9hWCsaQB Wd4QgN9vOzHyS4DBCRXQ --json'],
});
