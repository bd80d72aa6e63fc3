import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSiteIntegrations',
  description: 'List the integrations installed on a docs site',
  examples: ['<%= config.bin %> sites integrations list szK9Qp2mTtR4bLx0aVn1', '<%= config.bin %> sites integrations list szK9Qp2mTtR4bLx0aVn1 --json'],
  orgFlag: true,
  columns: ['name', 'title', 'target'],
});
