import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../helpers/people.js';
import { startServer, TEST_TOKEN, type TestServer } from '../helpers/server.js';
import { ownerScenario, readerScenario, readOperations } from './world.js';

// `/mcp` of docs serve (Streamable HTTP, stateless), driven by the SDK's own client.

let server: TestServer;
const clients: Client[] = [];
async function connect(token: string | undefined, search = ''): Promise<Client> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(server.url + '/mcp' + search), { requestInit: { headers } });
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await server.stop();
});

describe('/mcp on docs serve', () => {
  it('lists every operation, reads, writes, refuses bad input; a reader is refused writes', { timeout: 60_000 }, async () => {
    const { orgId, spaceId } = await ownerScenario(await connect(TEST_TOKEN));
    const reader = await addUser(server.ctx, orgId, 'read');
    await readerScenario(await connect(reader.token), orgId, spaceId);
  });

  it('?read-only=1&tools=spaces: only those GET operations', async () => {
    const client = await connect(TEST_TOKEN, '?read-only=1&tools=spaces');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(readOperations(['spaces']).sort());
  });

  it('without a token, or with a wrong one: 401 with a JSON-RPC error, before MCP runs', async () => {
    await expect(connect(undefined)).rejects.toThrow(/authentication required/);
    await expect(connect('gb_api_wrong')).rejects.toThrow(/invalid token/);
    const res = await fetch(server.url + '/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect((await res.json()).error.message).toBe('authentication required: send Authorization: Bearer <token>');
  });

  it('an oversized request: 413 with a JSON-RPC error naming the limit; nothing made', async () => {
    const before = (await server.api('GET', '/v1/orgs')).body.items[0].id;
    const call = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'createCollection', arguments: { organizationId: before, title: 'x'.repeat(17 * 1024 * 1024) } },
    };
    const res = await fetch(server.url + '/mcp', {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(call),
    }).catch((err) => err as Error);
    // The server may close the connection while the client still sends: either way, no collection.
    if (!(res instanceof Error)) {
      expect(res.status).toBe(413);
      expect((await res.json()).error.message).toBe('body: larger than the limit of 16777216 bytes');
    }
    const cols = await server.api('GET', `/v1/orgs/${before}/collections`);
    expect(cols.body.items.filter((c: any) => c.title?.startsWith('xxx'))).toEqual([]);
  });

  it('?tools= an unknown area: 400 with a JSON-RPC error listing the areas', async () => {
    const res = await fetch(server.url + '/mcp?tools=spacez', {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/^tools: unknown area spacez \(areas: users, organizations/);
  });

  it('GET /mcp: 405 (a stateless server has no stream to open)', async () => {
    const res = await fetch(server.url + '/mcp', { headers: { authorization: `Bearer ${TEST_TOKEN}`, accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});
