import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteOrganizationInviteById',
  description: 'Delete an invite link (admins)',
  orgFlag: true,
  confirm: (p) => `Delete invite link ${p.inviteId}?`,
  done: (_s, p) => `Deleted invite link ${p.inviteId} (not restorable; create another with: docs invites links create).`,
  missing: (p) => `invite link ${p.inviteId} not found: nothing deleted`,
  examples: ['<%= config.bin %> invites links delete I9nV1t3L1nK5aB7cD2eF --yes'],
});
