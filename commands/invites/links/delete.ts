import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteOrganizationInviteById',
  description: 'Delete an invite link (admins)',
  orgFlag: true,
  confirm: (p) => `Delete invite link ${p.inviteId}?`,
  done: (status) => (status === 205 ? 'Deleted.' : 'Nothing to do: no such invite link.'),
  examples: [
    '<%= config.bin %> invites links delete I9nV1t3L1nK5aB7cD2eF --yes',
  ],
});
