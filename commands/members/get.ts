import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getMemberInOrganizationById',
  description: 'Show one member',
  orgFlag: true,
  examples: ['<%= config.bin %> members get Xk2f9QmL0aTz7WcV1bNp', '<%= config.bin %> members get Xk2f9QmL0aTz7WcV1bNp --org r55bjk0VeuQGpJpb7mcG --json'],
});
