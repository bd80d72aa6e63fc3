import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getSiteContextConnectionById',
  description: "Show a site's context connection: its connector, settings, status (why it failed), and records",
  examples: ['<%= config.bin %> sites context connections get szK9Qp2mTtR4bLx0aVn1 ctxQ8vXa1ZtY6HcMbR2p'],
  orgFlag: true,
});
