import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'createOrganizationInvite',
  description: 'Create an invite link to the organization (admins)',
  orgFlag: true,
  examples: ['<%= config.bin %> invites links create --role edit', '<%= config.bin %> invites links create --role guest --json'],
});
