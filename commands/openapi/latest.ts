import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getLatestOpenAPISpecVersion',
  description: 'Show the latest processed version of an OpenAPI spec',
  examples: ['<%= config.bin %> openapi latest petstore', '<%= config.bin %> openapi latest petstore --org 6yZr3RyMqly3HeMx6Xkr --json'],
  orgFlag: true,
});
