import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listMembersInOrganizationById',
  description: 'List the members of an organization',
  orgFlag: true,
  columns: ['id', 'user.displayName', 'user.email', 'role', 'joinedAt', 'lastSeenAt', 'teams'],
  examples: [
    '<%= config.bin %> members list',
    '<%= config.bin %> members list --role admin --search acme.com',
    '<%= config.bin %> members list --sort lastSeenAt --order asc --org r55bjk0VeuQGpJpb7mcG --json',
  ],
});
