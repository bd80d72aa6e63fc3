import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getSiteAdaptiveSchema',
  description: 'Show the adaptive-content visitor schema of a site',
  examples: ['<%= config.bin %> sites schema get szK9Qp2mTtR4bLx0aVn1 --json'],
  orgFlag: true,
});
