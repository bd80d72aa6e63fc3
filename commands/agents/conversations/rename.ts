import { chooseAgentConversation } from '../../_lib/pick.js';
import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateOrganizationAgentConversation',
  description: 'Rename one of your conversations with the organization agent',
  examples: ['<%= config.bin %> agents conversations rename default --title "Release notes"'],
  summary: (b) => `✓ Renamed agent conversation ${b.id} to "${b.title}"`,
  choose: { conversationId: chooseAgentConversation },
  orgFlag: true,
});
