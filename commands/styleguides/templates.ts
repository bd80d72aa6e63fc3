import { operationCommand } from '../_lib/operation-command.js';

// `docs styleguides templates`: the built-in style guide templates (docs/manual/styleguides.md#templates).
export default operationCommand({
  operationId: 'listStyleguideTemplates',
  description: 'List the built-in style guide templates (their rules as markdown)',
  examples: ['<%= config.bin %> styleguides templates', '<%= config.bin %> styleguides templates --json'],
  orgFlag: true,
  summary: false,
});
