import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSiteAdaptiveTemplateConditions',
  description: "Example conditions derived from the site's visitor schema",
  examples: ['<%= config.bin %> sites schema conditions szK9Qp2mTtR4bLx0aVn1'],
  orgFlag: true,
  columns: ['condition', 'description'],
});
