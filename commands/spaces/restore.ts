import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'restoreSpace',
  description: 'Restore a space deleted less than 7 days ago',
  examples: ['<%= config.bin %> spaces restore dHD9ZmkOPnfy9hWCsaQB'],
});
