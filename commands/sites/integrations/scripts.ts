import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSiteIntegrationScripts',
  description: "List the scripts integrations add to a docs site's pages",
  examples: ['<%= config.bin %> sites integrations scripts szK9Qp2mTtR4bLx0aVn1', '<%= config.bin %> sites integrations scripts szK9Qp2mTtR4bLx0aVn1 --json'],
  orgFlag: true,
  columns: ['script', 'cookies', 'contentSecurityPolicy'],
});
