import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'addSectionToGroup',
  description: 'Move a section into a section group (at its end)',
  examples: ['<%= config.bin %> section-groups add-section szK9Qp2mTtR4bLx0aVn1 grpW3nB8rTq5LcYx0KdM --section-id sct7Hq2KpLw9XbYc3MnE'],
  orgFlag: true,
});
