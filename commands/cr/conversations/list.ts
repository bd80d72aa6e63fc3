import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listChangeRequestConversations',
  description: "List the agent's conversations in a change request (what the agent did there, for whom)",
  examples: ['<%= config.bin %> cr conversations list dHD9ZmkOPnfy9hWCsaQB 4', '<%= config.bin %> cr conversations list dHD9ZmkOPnfy9hWCsaQB 4 --json'],
  columns: ['id', 'title', 'createdAt', 'updatedAt'],
});
