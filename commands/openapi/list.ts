import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listOpenAPISpecs',
  description: 'List the OpenAPI specs of an organization',
  examples: ['<%= config.bin %> openapi list', '<%= config.bin %> openapi list --org 6yZr3RyMqly3HeMx6Xkr --json'],
  columns: ['slug', 'processingState', 'visibility', 'lastVersion', 'lastProcessErrorCode', 'updatedAt'],
  orgFlag: true,
});
