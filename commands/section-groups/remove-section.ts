import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'removeSectionFromGroup',
  description: "Take a section out of a section group (to the group's parent)",
  examples: ['<%= config.bin %> section-groups remove-section szK9Qp2mTtR4bLx0aVn1 grpW3nB8rTq5LcYx0KdM sct7Hq2KpLw9XbYc3MnE'],
  orgFlag: true,
  done: (status) => (status === 205 ? 'Removed from the group.' : 'It was not in that group.'),
});
