import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'publishSite',
  description: 'Publish a docs site to the audience its visibility sets',
  examples: ['<%= config.bin %> sites publish szK9Qp2mTtR4bLx0aVn1'],
  orgFlag: true,
});
