import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateChangeRequestConversation',
  description: "Rename one of the agent's conversations in a change request",
  examples: ['<%= config.bin %> cr conversations rename dHD9ZmkOPnfy9hWCsaQB 4 default --title "Password reset answers"'],
  summary: (b) => `✓ Renamed conversation ${b.id} to "${b.title}"`,
});
