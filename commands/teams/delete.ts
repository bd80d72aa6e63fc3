import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'removeTeamFromOrganizationById',
  description: 'Delete a team (admins and team owners)',
  orgFlag: true,
  confirm: (p) => `Delete team ${p.teamId}?`,
  done: (status) => (status === 205 ? 'Deleted.' : 'Nothing to do: no such team.'),
  examples: [
    '<%= config.bin %> teams delete T7gH2kLm9QpR4sVx8YzA',
    '<%= config.bin %> teams delete T7gH2kLm9QpR4sVx8YzA --yes',
  ],
});
