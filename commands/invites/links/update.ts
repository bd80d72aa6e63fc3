import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateOrganizationInviteById',
  description: "Change an invite link's role (admins)",
  orgFlag: true,
  examples: ['<%= config.bin %> invites links update I9nV1t3L1nK5aB7cD2eF --role read'],
});
