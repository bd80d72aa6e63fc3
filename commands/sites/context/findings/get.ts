import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getSiteFindingById',
  description: 'Show a finding of a site: its type, severity, status, what it is about and how many questions, records, pages and change requests it links',
  examples: ['<%= config.bin %> sites context findings get szK9Qp2mTtR4bLx0aVn1 szK9Qp2mTtR4bLx0aVn1:f3c1d2e9a8b7f6e5d4c3'],
  orgFlag: true,
});
