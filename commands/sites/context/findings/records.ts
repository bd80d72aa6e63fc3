import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listRecordsForSiteFinding',
  description: 'List the context records (tickets, documents) that are evidence of a finding',
  examples: ['<%= config.bin %> sites context findings records szK9Qp2mTtR4bLx0aVn1 szK9Qp2mTtR4bLx0aVn1:f3c1d2e9a8b7f6e5d4c3'],
  orgFlag: true,
  columns: ['id', 'type', 'title', 'connector', 'createdAt'],
});
