import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getRevisionOfChangeRequestById',
  description: "Show the latest revision of a change request's content",
  examples: ['<%= config.bin %> cr revision dHD9ZmkOPnfy9hWCsaQB 4 --json'],
});
