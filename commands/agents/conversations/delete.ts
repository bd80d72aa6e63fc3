import { chooseAgentConversation } from '../../_lib/pick.js';
import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteOrganizationAgentConversation',
  description: 'Delete one of your conversations with the organization agent (not restorable)',
  examples: ['<%= config.bin %> agents conversations delete default', '<%= config.bin %> agents conversations delete default --yes'],
  confirm: (path) => `Delete your agent conversation ${path.conversationId}? (not restorable)`,
  done: (_s, p) => `Deleted agent conversation ${p.conversationId} (not restorable).`,
  choose: { conversationId: chooseAgentConversation },
  orgFlag: true,
});
