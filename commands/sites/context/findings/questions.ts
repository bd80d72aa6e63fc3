import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listQuestionsForSiteFinding',
  description: 'List the site questions that are evidence of a finding',
  examples: ['<%= config.bin %> sites context findings questions szK9Qp2mTtR4bLx0aVn1 szK9Qp2mTtR4bLx0aVn1:f3c1d2e9a8b7f6e5d4c3'],
  orgFlag: true,
  columns: ['id', 'question', 'type', 'stats.answers'],
});
