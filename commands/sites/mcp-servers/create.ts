import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'createSiteMcpServer',
  description: "Configure a site's MCP endpoint: --url <site URL>/mcp (or /mcp/<slug>) with ?tools=search,read_page&spaces=ID,ID",
  examples: ['<%= config.bin %> sites mcp-servers create szK9Qp2mTtR4bLx0aVn1 --name "Public agents" --url "https://docs.example.com/mcp?tools=search"'],
  orgFlag: true,
  flags: {
    url: Flags.string({
      description: 'The endpoint: <site URL>/mcp or <site URL>/mcp/<slug>, with ?tools=search,read_page and ?spaces=ID,ID to narrow it',
      required: true,
    }),
    headers: Flags.string({ description: 'Headers clients must send to use the endpoint (JSON object, e.g. {"X-Key":"k-123"})' }),
  },
  prepare: (req) => {
    req.body.headers ??= {}; // no headers required of clients unless given (--headers JSON)
  },
  summary: (b) => `✓ Configured ${b.url} (${b.id})`,
});
