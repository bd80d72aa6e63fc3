import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listTeamsInOrganizationById',
  description: 'List the teams of an organization',
  orgFlag: true,
  columns: ['id', 'title', 'members', 'spaces', 'createdAt'],
  examples: [
    '<%= config.bin %> teams list',
    '<%= config.bin %> teams list --title eng',
    '<%= config.bin %> teams list --owner Xk2f9QmL0aTz7WcV1bNp --org r55bjk0VeuQGpJpb7mcG --json',
  ],
});
