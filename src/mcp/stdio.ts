import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { TransportOptions } from '../transport/select.js';
import { adminProviders } from './admin.js';
import { createMcpServer } from './server.js';
import { mcpSession } from './session.js';
import { selectTools, type ToolFilter } from './tools.js';

/** `docs mcp`: the administration server on stdin/stdout until the client closes it. */
export async function runStdio(options: TransportOptions, filter: ToolFilter, version: string): Promise<void> {
  selectTools(filter); // a bad --tools is a usage error before anything starts
  const session = mcpSession(options);
  const server = createMcpServer(adminProviders(session.call, filter, version));
  const stdio = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    process.stdin.once('end', resolve); // the client went away
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.connect(stdio);
  await closed;
  await session.close();
  await server.close();
}
