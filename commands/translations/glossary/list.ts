import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listGlossaryEntries',
  description: "List the organization's translation glossary: each entry gives one term in several languages, and translation runs write it as given",
  examples: ['<%= config.bin %> translations glossary list', '<%= config.bin %> translations glossary list --order-by fr --json'],
  columns: ['id', 'translations', 'updatedAt'],
  orgFlag: true,
});
