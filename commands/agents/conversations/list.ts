import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listOrganizationAgentConversations',
  description: 'List your conversations with the organization agent (yours only: no one else sees them)',
  examples: ['<%= config.bin %> agents conversations list', '<%= config.bin %> agents conversations list --org r55bjk0VeuQGpJpb7mcG --json'],
  columns: ['id', 'title', 'createdAt', 'updatedAt'],
  orgFlag: true,
});
