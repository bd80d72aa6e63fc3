import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateOpenAPISpecBySlug',
  description: 'Make an OpenAPI spec public or private',
  examples: ['<%= config.bin %> openapi visibility petstore --visibility public', '<%= config.bin %> openapi visibility petstore --visibility private --json'],
  orgFlag: true,
});
