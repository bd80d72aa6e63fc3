import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'removeUserFromSite',
  description: "Remove a user's grant on a site (their organization role still applies)",
  examples: ['<%= config.bin %> sites permissions remove szK9Qp2mTtR4bLx0aVn1 Xk2f9QmL0aTz7WcV1bNp'],
  orgFlag: true,
  done: 'Removed.',
  missing: (p) => `user ${p.userId} has no grant on site ${p.siteId}: nothing removed`,
});
