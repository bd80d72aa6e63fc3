import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getTeamInOrganizationById',
  description: 'Show one team',
  orgFlag: true,
  examples: ['<%= config.bin %> teams get T7gH2kLm9QpR4sVx8YzA', '<%= config.bin %> teams get T7gH2kLm9QpR4sVx8YzA --org r55bjk0VeuQGpJpb7mcG --json'],
});
