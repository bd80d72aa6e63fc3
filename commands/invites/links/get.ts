import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getOrganizationInviteLink',
  description: 'Show an invite link',
  orgFlag: true,
  examples: ['<%= config.bin %> invites links get I9nV1t3L1nK5aB7cD2eF'],
});
