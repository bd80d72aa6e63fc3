import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/auth/bootstrap.js';
import { openContext } from '../../src/open.js';
import { BIN } from '../helpers/cli.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, TEST_TOKEN } from '../helpers/server.js';
import { ownerScenario, readerScenario, readOperations, text } from './world.js';
import { Organizations } from '../../src/organizations/tables.js';

// `docs mcp` spawned as a desktop client would, driven by the SDK's own client over stdio.

const clients: Client[] = [];
async function connect(args: string[], env: Record<string, string> = {}): Promise<Client> {
  const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !k.startsWith('DOCS_'))) as Record<string, string>;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: { ...baseEnv, DOCS_CONFIG_DIR: dir + '-config', ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function firstOrg(url: string): Promise<string> {
  const res = await fetch(`${url}/v1/orgs`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
  return (await res.json()).items[0].id;
}

let dir: string;
let readerToken: string;
beforeAll(async () => {
  dir = tempDir('docs-mcp-');
  // The owner (a fixed token) and a reader, written before `docs mcp` opens the directory.
  const ctx = await openContext(dir);
  await bootstrap(ctx, TEST_TOKEN);
  const org = await ctx.store.read((tx) => tx.all(Organizations)[0].id as string);
  readerToken = (await addUser(ctx, org, 'read')).token;
  await ctx.store.close();
});
afterAll(async () => {
  for (const c of clients) await c.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('docs mcp (stdio, in-process on the data directory)', () => {
  it('lists every operation, reads, writes, refuses bad input', { timeout: 60_000 }, async () => {
    const owner = await connect(['--data', dir, '--token', TEST_TOKEN]);
    const { orgId, spaceId } = await ownerScenario(owner);
    // The directory is not held between calls: a reader's server works on it at the same time.
    const reader = await connect(['--data', dir, '--token', readerToken]);
    await readerScenario(reader, orgId, spaceId);
  });

  it('--read-only --tools: only the GET operations of those areas; a write is an unknown tool', { timeout: 30_000 }, async () => {
    const client = await connect(['--data', dir, '--token', TEST_TOKEN, '--read-only', '--tools', 'spaces,content,cr']);
    const { tools } = await client.listTools();
    const expected = readOperations(['spaces', 'content', 'change-requests']);
    expect(tools.map((t) => t.name).sort()).toEqual(expected.sort());
    expect(tools.every((t) => t.annotations?.readOnlyHint)).toBe(true);
    await expect(client.callTool({ name: 'createSpace', arguments: {} })).rejects.toThrow(/unknown tool createSpace/);
  });

  it('oversized arguments: an MCP error naming the limit, nothing made, the session goes on', { timeout: 30_000 }, async () => {
    const client = await connect(['--data', dir, '--token', TEST_TOKEN]);
    const orgId = ((await client.callTool({ name: 'listOrganizationsForAuthenticatedUser', arguments: {} })).structuredContent as any).items[0].id;
    const big = client.callTool({ name: 'createCollection', arguments: { organizationId: orgId, title: 'x'.repeat(17 * 1024 * 1024) } });
    await expect(big).rejects.toThrow(/request: larger than the limit of 16777216 bytes/);
    const cols = (await client.callTool({ name: 'listCollectionsInOrganizationById', arguments: { organizationId: orgId } })).structuredContent as any;
    expect(cols.items).toEqual([]);
  });

  it('a wrong token: tool calls are refused as unauthenticated', { timeout: 30_000 }, async () => {
    const client = await connect(['--data', dir, '--token', 'gb_api_not_a_token']);
    const r = await client.callTool({ name: 'listOrganizationsForAuthenticatedUser', arguments: {} });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('invalid token');
  });

  it('on a data directory held by docs serve: routed to that server, as any command', { timeout: 60_000 }, async () => {
    const served = tempDir('docs-mcp-served-');
    // The server holding the directory runs in this process; the MCP server is a process of its own.
    const server = await startServer({ dataDir: served });
    const { url } = server;
    try {
      const client = await connect(['--data', served]); // no token: the server's session token, as its owner
      const made = await client.callTool({ name: 'createCollection', arguments: { organizationId: await firstOrg(url), title: 'Routed' } });
      expect(made.isError, text(made)).toBeFalsy();
      const res = await fetch(`${url}/v1/collections/${(made.structuredContent as any).id}`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
      expect((await res.json()).title).toBe('Routed');
    } finally {
      await server.stop();
      rmSync(served, { recursive: true, force: true });
    }
  });

  it('--api-url: the same tools over HTTP to a running server', { timeout: 30_000 }, async () => {
    const server = await startServer();
    try {
      const client = await connect(['--api-url', server.url, '--token', TEST_TOKEN]);
      const orgs = await client.callTool({ name: 'listOrganizationsForAuthenticatedUser', arguments: {} });
      const orgId = (orgs.structuredContent as any).items[0].id;
      const made = await client.callTool({ name: 'createCollection', arguments: { organizationId: orgId, title: 'Over HTTP' } });
      expect(made.isError, text(made)).toBeFalsy();
      const bad = await client.callTool({ name: 'createCollection', arguments: { organizationId: orgId, title: 7 } });
      expect(text(bad)).toContain('body.title: must be string');
      await client.close();
    } finally {
      await server.stop();
    }
  });

  it('a client that closes stdin after its requests still gets every answer', { timeout: 30_000 }, async () => {
    const { spawnSync } = await import('node:child_process');
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'sh', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'listOrganizationsForAuthenticatedUser', arguments: {} } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope', arguments: {} } },
    ];
    const r = spawnSync(process.execPath, [BIN, 'mcp', '--data', dir, '--token', TEST_TOKEN], {
      encoding: 'utf8',
      input: lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
    });
    const answers = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(answers.find((a) => a.id === 2).result.structuredContent.items.length).toBe(1);
    expect(answers.find((a) => a.id === 3).error).toEqual({ code: -32602, message: 'unknown tool nope (tools/list says which there are)' });
    expect(r.status).toBe(0);
  });

  it('an unknown --tools area is a usage error (exit 2)', async () => {
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync(process.execPath, [BIN, 'mcp', '--data', dir, '--tools', 'spaces,nope'], { encoding: 'utf8', input: '' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('tools: unknown area nope');
  });
});
