import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getSiteMcpServerById',
  description: "Show one of a site's MCP endpoint configurations",
  examples: ['<%= config.bin %> sites mcp-servers get szK9Qp2mTtR4bLx0aVn1 mcpQ8vXa1ZtY6HcMbR2p'],
  orgFlag: true,
});
