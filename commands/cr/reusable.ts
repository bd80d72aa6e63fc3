import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getReusableContentInChangeRequestById',
  description: 'Show a reusable content block as it is in a change request (created or edited there, or as the space had it)',
  examples: ['<%= config.bin %> cr reusable dHD9ZmkOPnfy9hWCsaQB 3 kR3mQ8vZpL2xW7tYb1Nc'],
});
