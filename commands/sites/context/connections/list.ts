import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSiteContextConnections',
  description: "List a site's context connections: where its records come from, their status and how many records each brought in",
  examples: ['<%= config.bin %> sites context connections list szK9Qp2mTtR4bLx0aVn1'],
  orgFlag: true,
  columns: ['id', 'connector', 'label', 'status', 'records', 'syncedAt'],
});
