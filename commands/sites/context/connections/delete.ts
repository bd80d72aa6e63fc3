import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteSiteContextConnectionById',
  description: "Remove a site's context connection and every record it brought in",
  examples: ['<%= config.bin %> sites context connections delete szK9Qp2mTtR4bLx0aVn1 ctxQ8vXa1ZtY6HcMbR2p --yes'],
  orgFlag: true,
  confirm: (p) => `Remove context connection ${p.siteContextConnectionId} of site ${p.siteId}, and its records?`,
  done: (_s, p) => `Removed connection ${p.siteContextConnectionId} and its records.`,
  missing: (p) => `context connection ${p.siteContextConnectionId} not found in site ${p.siteId}: nothing removed`,
});
