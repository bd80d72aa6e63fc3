import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** An MCP client (the SDK's) on a docs serve's /mcp with a bearer token; close it when done. */
export async function connectMcp(url: string, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url + '/mcp'), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'security-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** The text of a tool result. */
export const toolText = (r: any): string => r.content.map((c: any) => c.text).join('\n');
