import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'removeTeamFromSite',
  description: "Remove a team's grant on a site",
  examples: ['<%= config.bin %> sites permissions remove-team szK9Qp2mTtR4bLx0aVn1 T7gH2kLm9QpR4sVx8YzA'],
  orgFlag: true,
  done: 'Removed.',
  missing: (p) => `team ${p.teamId} has no grant on site ${p.siteId}: nothing removed`,
});
