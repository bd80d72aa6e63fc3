import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getSiteCustomizationById',
  description: "Show a site's customization (change it with docs sites customize)",
  examples: ['<%= config.bin %> sites customization szK9Qp2mTtR4bLx0aVn1 --json'],
  orgFlag: true,
});
