import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getOpenAPISpecBySlug',
  description: 'Show one OpenAPI spec: processing state, last version, last errors',
  examples: ['<%= config.bin %> openapi get petstore', '<%= config.bin %> openapi get petstore --org 6yZr3RyMqly3HeMx6Xkr --json'],
  orgFlag: true,
});
