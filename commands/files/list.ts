import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listFiles',
  description: "List a space's files (current revision)",
  examples: ['<%= config.bin %> files list dHD9ZmkOPnfy9hWCsaQB', '<%= config.bin %> files list dHD9ZmkOPnfy9hWCsaQB --json'],
  columns: ['id', 'name', 'contentType', 'size'],
});
