import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getSiteTopicById',
  description: 'Show a topic of a site: its label, summary, counts and question stats',
  examples: ['<%= config.bin %> sites context topics get szK9Qp2mTtR4bLx0aVn1 szK9Qp2mTtR4bLx0aVn1:t9a8b7c6d5e4f3a2b1c0'],
  orgFlag: true,
});
