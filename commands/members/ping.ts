import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateOrganizationMemberLastSeenAt',
  description: 'Mark yourself as active now; prints a signed visitor-claims token (JWT)',
  orgFlag: true,
  examples: ['<%= config.bin %> members ping', '<%= config.bin %> members ping --org r55bjk0VeuQGpJpb7mcG --json'],
});
