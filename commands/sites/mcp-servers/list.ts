import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSiteMcpServers',
  description: 'List the MCP endpoints configured for a site (which tools and spaces each serves)',
  examples: ['<%= config.bin %> sites mcp-servers list szK9Qp2mTtR4bLx0aVn1'],
  orgFlag: true,
  columns: ['id', 'name', 'url'],
});
