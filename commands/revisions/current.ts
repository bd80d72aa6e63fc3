import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getCurrentRevision',
  description: "Show a space's current revision (its pages, files and reusable content as merged)",
  examples: ['<%= config.bin %> revisions current dHD9ZmkOPnfy9hWCsaQB --json'],
});
