import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getSiteById',
  description: 'Show a docs site',
  examples: ['<%= config.bin %> sites get szK9Qp2mTtR4bLx0aVn1', '<%= config.bin %> sites get szK9Qp2mTtR4bLx0aVn1 --json'],
  orgFlag: true,
});
