import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteChangeRequestConversation',
  description: "Delete one of the agent's conversations in a change request (not restorable)",
  examples: [
    '<%= config.bin %> cr conversations delete dHD9ZmkOPnfy9hWCsaQB 4 default',
    '<%= config.bin %> cr conversations delete dHD9ZmkOPnfy9hWCsaQB 4 default --yes',
  ],
  confirm: (path) => `Delete conversation ${path.conversationId} of change request ${path.changeRequestId}? (not restorable)`,
  done: (_s, p) => `Deleted conversation ${p.conversationId} of change request ${p.changeRequestId} (not restorable).`,
});
