import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateSiteMcpServerById',
  description: "Change a site's MCP endpoint configuration (its name, its URL's tools and spaces, its headers)",
  examples: [
    '<%= config.bin %> sites mcp-servers update szK9Qp2mTtR4bLx0aVn1 mcpQ8vXa1ZtY6HcMbR2p --url "https://docs.example.com/mcp?tools=search,read_page"',
  ],
  orgFlag: true,
  flags: {
    url: Flags.string({
      description: 'The endpoint: <site URL>/mcp or <site URL>/mcp/<slug>, with ?tools=search,read_page and ?spaces=ID,ID to narrow it',
    }),
    headers: Flags.string({ description: 'Headers clients must send to use the endpoint (JSON object, e.g. {"X-Key":"k-123"})' }),
  },
});
