import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSpacesForOrganizationMember',
  description: 'List the spaces a member reaches, with the level they have on each',
  orgFlag: true,
  columns: ['space.id', 'space.title', 'permission', 'space.visibility'],
  examples: ['<%= config.bin %> members spaces Xk2f9QmL0aTz7WcV1bNp', '<%= config.bin %> members spaces Xk2f9QmL0aTz7WcV1bNp --order asc --json'],
});
