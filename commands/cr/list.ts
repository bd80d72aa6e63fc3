import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listChangeRequestsForSpace',
  description: "List a space's change requests (default: open ones)",
  examples: ['<%= config.bin %> cr list dHD9ZmkOPnfy9hWCsaQB', '<%= config.bin %> cr list dHD9ZmkOPnfy9hWCsaQB --status merged --json'],
  columns: ['number', 'id', 'status', 'subject', 'outdated', 'createdBy.displayName', 'updatedAt'],
});
