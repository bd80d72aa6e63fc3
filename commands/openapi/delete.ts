import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteOpenAPISpecBySlug',
  description: 'Delete an OpenAPI spec and all its versions',
  examples: ['<%= config.bin %> openapi delete petstore', '<%= config.bin %> openapi delete petstore --org 6yZr3RyMqly3HeMx6Xkr --yes'],
  confirm: (path) => `Delete the OpenAPI spec ${path.specSlug} and all its versions?`,
  done: (status) => (status === 205 ? 'Deleted.' : 'There was no such spec: nothing deleted.'),
  orgFlag: true,
});
