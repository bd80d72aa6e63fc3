import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listFilesInChangeRequestById',
  description: "List the files (images, attachments) of a change request's content",
  examples: ['<%= config.bin %> cr files dHD9ZmkOPnfy9hWCsaQB 4', '<%= config.bin %> cr files dHD9ZmkOPnfy9hWCsaQB 4 --json'],
  columns: ['id', 'name', 'contentType', 'size'],
});
