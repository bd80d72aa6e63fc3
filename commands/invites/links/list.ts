import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listOrganizationInviteLinks',
  description: 'List invite links (admins)',
  orgFlag: true,
  columns: ['id', 'role', 'redundant'],
  examples: ['<%= config.bin %> invites links list', '<%= config.bin %> invites links list --org r55bjk0VeuQGpJpb7mcG --json'],
});
