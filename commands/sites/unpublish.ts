import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'unpublishSite',
  description: 'Take a docs site offline',
  examples: ['<%= config.bin %> sites unpublish szK9Qp2mTtR4bLx0aVn1'],
  orgFlag: true,
});
