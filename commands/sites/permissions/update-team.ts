import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateTeamPermissionInSite',
  description: "Change a team's role on a site",
  examples: ['<%= config.bin %> sites permissions update-team szK9Qp2mTtR4bLx0aVn1 T7gH2kLm9QpR4sVx8YzA --role comment'],
  orgFlag: true,
  done: 'Updated.',
});
