import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listConversations',
  description: 'List the conversations ingested into an organization, newest first',
  examples: ['<%= config.bin %> conversations list', '<%= config.bin %> conversations list --source integration:api:Xk2f9QmL0aTz7WcV1bNp --limit 20 --json'],
  columns: ['id', 'subject', 'source', 'createdAt', 'processedAt'],
  orgFlag: true,
});
