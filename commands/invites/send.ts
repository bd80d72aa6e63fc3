import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'inviteUsersToOrganization',
  description: 'Invite people by email address (admins); unknown addresses get a new user',
  orgFlag: true,
  examples: [
    '<%= config.bin %> invites send --emails ann@acme.com --emails bob@acme.com --role edit',
    '<%= config.bin %> invites send --emails ann@acme.com --sso --json',
    '<%= config.bin %> invites send --input invites.json   # {"emails":[{"email":"ann@acme.com","role":"admin"}]}',
  ],
});
