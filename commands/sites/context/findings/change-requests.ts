import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listChangeRequestsForSiteFinding',
  description: 'List the change requests opened to fix a finding',
  examples: ['<%= config.bin %> sites context findings change-requests szK9Qp2mTtR4bLx0aVn1 szK9Qp2mTtR4bLx0aVn1:f3c1d2e9a8b7f6e5d4c3'],
  orgFlag: true,
  columns: ['id', 'space', 'number', 'status', 'subject'],
});
