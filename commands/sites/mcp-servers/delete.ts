import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteSiteMcpServerById',
  description: "Remove a site's MCP endpoint configuration (its /mcp serves every tool and space again; a /mcp/<slug> endpoint is gone)",
  examples: ['<%= config.bin %> sites mcp-servers delete szK9Qp2mTtR4bLx0aVn1 mcpQ8vXa1ZtY6HcMbR2p --yes'],
  orgFlag: true,
  confirm: (p) => `Remove MCP server ${p.siteMcpServerId} from site ${p.siteId}?`,
  done: (_s, p) => `Removed MCP server ${p.siteMcpServerId}.`,
  missing: (p) => `MCP server ${p.siteMcpServerId} not found in site ${p.siteId}: nothing removed`,
});
