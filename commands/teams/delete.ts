import { teamNamed } from '../_lib/names.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'removeTeamFromOrganizationById',
  description: 'Delete a team (admins and team owners)',
  orgFlag: true,
  confirm: async (p, _f, t) => `Delete ${await teamNamed(t, p.organizationId!, p.teamId!)}?`,
  done: (_s, p) => `Deleted team ${p.teamId} (not restorable; create one with: docs teams create).`,
  missing: (p) => `team ${p.teamId} not found: nothing deleted`,
  examples: ['<%= config.bin %> teams delete T7gH2kLm9QpR4sVx8YzA', '<%= config.bin %> teams delete T7gH2kLm9QpR4sVx8YzA --yes'],
});
