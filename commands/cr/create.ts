import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'createChangeRequest',
  description: "Open a change request on the space's current revision",
  examples: ['<%= config.bin %> cr create dHD9ZmkOPnfy9hWCsaQB --subject "Fix the install guide"', '<%= config.bin %> cr create dHD9ZmkOPnfy9hWCsaQB --json'],
});
