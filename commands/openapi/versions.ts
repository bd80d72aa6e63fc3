import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listOpenAPISpecVersions',
  description: 'List the versions of an OpenAPI spec, newest first',
  examples: ['<%= config.bin %> openapi versions petstore', '<%= config.bin %> openapi versions petstore --limit 5 --json'],
  columns: ['id', 'createdAt', 'url'],
  orgFlag: true,
});
