import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { TransportOptions } from '../transport/select.js';
import { adminProviders } from './admin.js';
import { LineLimit } from './line-limit.js';
import { createMcpServer } from './server.js';
import { mcpSession } from './session.js';
import { MAX_ARGUMENT_BYTES, selectTools, type ToolFilter } from './tools.js';

/** `docs mcp`: the administration server on stdin/stdout until the client closes it. */
export async function runStdio(options: TransportOptions, filter: ToolFilter, version: string): Promise<void> {
  selectTools(filter); // a bad --tools is a usage error before anything starts
  const session = mcpSession(options);
  const server = createMcpServer(adminProviders(session.call, filter, version));
  const refuse = (id: string | number | null, size: number) => {
    const message = `request: larger than the limit of ${MAX_ARGUMENT_BYTES} bytes (${size} bytes)`;
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message } }) + '\n');
  };
  const input = process.stdin.pipe(new LineLimit(MAX_ARGUMENT_BYTES, refuse));
  const stdio = new StdioServerTransport(input, process.stdout, { maxBufferSize: MAX_ARGUMENT_BYTES + 64 * 1024 });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    input.once('end', resolve); // the client went away
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.connect(stdio);
  await closed;
  await server.idle(); // every request read is answered
  await session.close(); // then the store is let go
  await server.close();
}
