import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteOpenAPISpecBySlug',
  description: 'Delete an OpenAPI spec and all its versions',
  examples: ['<%= config.bin %> openapi delete petstore', '<%= config.bin %> openapi delete petstore --org 6yZr3RyMqly3HeMx6Xkr --yes'],
  confirm: (path) => `Delete the OpenAPI spec ${path.specSlug} and all its versions?`,
  done: (_s, p) => `Deleted OpenAPI spec ${p.specSlug} with all its versions (not restorable; publish it again with: docs openapi put ${p.specSlug} FILE).`,
  missing: (p) => `OpenAPI spec ${p.specSlug} not found: nothing deleted`,
  orgFlag: true,
});
