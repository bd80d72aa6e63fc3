import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'provisionOrganizationAgentConversation',
  description: 'Provision a conversation with the organization agent under your id for it (again: refresh it)',
  examples: ['<%= config.bin %> agents conversations provision default', '<%= config.bin %> agents conversations provision release-notes-2026'],
  done: (_s, p) => `✓ Provisioned agent conversation ${p.conversationId}`,
  orgFlag: true,
});
