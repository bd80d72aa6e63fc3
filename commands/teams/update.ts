import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateTeamInOrganizationById',
  description: 'Rename a team (admins and team owners)',
  orgFlag: true,
  examples: ['<%= config.bin %> teams update T7gH2kLm9QpR4sVx8YzA --title "Platform Engineering"'],
});
