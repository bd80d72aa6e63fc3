import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureVisitorKey, signingKey, visitorAudience } from '../../src/auth/visitor-keys.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, page, spaceWith } from '../published/fixture.js';
import { text } from './world.js';

// `<published site URL>/mcp`: a site's read-only MCP server for its visitors, driven by the SDK's
// own client over Streamable HTTP: search and read a page, with the HTML site's visibility rules.

let s: TestServer;
let call: ReturnType<typeof api>;
let org: string;
let spaceId: string;
let base: string;
const clients: Client[] = [];

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

const newSite = async (title: string, body: object = {}, publish = true) => {
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title, spaces: [spaceId], ...body });
  const o = `/v1/orgs/${org}/sites/${site.id}`;
  return {
    o,
    id: site.id as string,
    basename: site.basename as string,
    url: publish ? ((await call('POST', `${o}/publish`)).urls.published.split('?')[0] as string) : undefined,
  };
};

/** A visitor token signed with this data directory's visitor key (ES256), with these claims. */
async function signed(claims: object) {
  const meta = await s.ctx.store.write((tx) => ensureVisitorKey(tx, s.ctx));
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: meta.kid })
    .setAudience(visitorAudience(org))
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(signingKey(meta));
}

beforeAll(async () => {
  s = await startServer();
  call = api(s);
  org = (await call('GET', '/v1/orgs')).items[0].id;
  const docs = await spaceWith(s, org, 'Docs', [
    page('a', 'Installation', 'Install the gizmo with the installer.\n\n## Upgrading\n\nRun the installer again.'),
    page('b', 'Usage', 'Use the gizmo daily.'),
    page('c', 'Admins Only', 'Reset the gizmo with the master key.', { condition: 'visitor.claims.role === "admin"' }),
  ]);
  spaceId = docs.space.id;
  base = (await newSite('Gizmo Docs')).url!;
}, 60_000);
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await s?.stop();
});

describe('<site>/mcp', () => {
  it('lists exactly two tools; search finds pages by words with site URLs and snippets; read_page gives markdown', async () => {
    const client = await connect(`${base}/mcp`);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['read_page', 'search']);
    expect(client.getInstructions()).toContain('Gizmo Docs');

    const found = await client.callTool({ name: 'search', arguments: { query: 'installer' } });
    expect(found.isError).toBeFalsy();
    const results = (found.structuredContent as any).results;
    expect(results.map((r: any) => [r.title, r.url])).toEqual([['Installation', `${base}/installation`]]);
    expect(results[0].snippets.map((x: any) => x.snippet).join(' ')).toMatch(/installer/);
    expect(text(found)).toContain(`[Installation](${base}/installation)`);
    expect(text(await client.callTool({ name: 'search', arguments: { query: 'zebra' } }))).toBe('No results for "zebra".');

    // By path, by the URL search gave, with `.md`: the page's markdown as the site's `.md` gives it.
    const byPath = await client.callTool({ name: 'read_page', arguments: { page: 'usage' } });
    expect(byPath.isError).toBeFalsy();
    expect(text(byPath)).toBe('# Usage\n\nUse the gizmo daily.\n');
    expect(text(await client.callTool({ name: 'read_page', arguments: { page: results[0].url } }))).toBe(await (await fetch(`${base}/installation.md`)).text());
    expect(text(await client.callTool({ name: 'read_page', arguments: { page: '/installation.md' } }))).toContain('Run the installer again.');
    expect(text(await client.callTool({ name: 'read_page', arguments: { page: '' } }))).toContain('# Installation');

    // A bare tools/call over HTTP, as the curl example of docs/manual/mcp.md (stateless: no initialize needed).
    const raw = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: { query: 'daily' } } }),
    });
    expect(raw.status).toBe(200);
    expect((await raw.json()).result.structuredContent.results.map((r: any) => r.title)).toEqual(['Usage']);

    const missing = await client.callTool({ name: 'read_page', arguments: { page: 'nothing-here' } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain('page: not found: nothing-here');
    const elsewhere = await client.callTool({ name: 'read_page', arguments: { page: `${s.url}/sites/other/site/usage` } });
    expect(elsewhere.isError).toBe(true);
    expect(text(elsewhere)).toContain('is not a page of this site');
  });

  it('bad arguments: a tool error naming the field; an unknown tool: a protocol error', async () => {
    const client = await connect(`${base}/mcp`);
    const cases: [string, object, string][] = [
      ['search', {}, 'query: is required'],
      ['search', { query: 42 }, 'query: must be a string'],
      ['search', { query: '   ' }, 'query: must not be empty'],
      ['search', { query: 'x'.repeat(201) }, 'query: longer than 200 characters'],
      ['search', { query: 'gizmo', limit: 0 }, 'limit: must be an integer from 1 to 50'],
      ['search', { query: 'gizmo', colour: 'red' }, 'colour: is not an argument of search'],
      ['read_page', {}, 'page: is required'],
      ['read_page', { page: ['usage'] }, 'page: must be a string'],
    ];
    for (const [name, args, message] of cases) {
      const r = await client.callTool({ name, arguments: args as Record<string, unknown> });
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(text(r)).toContain(message);
    }
    await expect(client.callTool({ name: 'createSpace', arguments: {} })).rejects.toThrow(/unknown tool createSpace/);
  });

  it('a page hidden by a condition is not found without the claims, and there with a valid ES256 visitor token (query or Authorization)', async () => {
    const anonymous = await connect(`${base}/mcp`);
    const hidden = await anonymous.callTool({ name: 'read_page', arguments: { page: 'admins-only' } });
    expect(hidden.isError).toBe(true);
    expect(text(hidden)).toContain('page: not found: admins-only');
    expect((await anonymous.callTool({ name: 'search', arguments: { query: 'master key' } })).structuredContent).toEqual({ query: 'master key', results: [] });

    const token = await signed({ role: 'admin' });
    for (const admin of [await connect(`${base}/mcp?jwt_token=${token}`), await connect(`${base}/mcp`, { authorization: `Bearer ${token}` })]) {
      expect(text(await admin.callTool({ name: 'read_page', arguments: { page: 'admins-only' } }))).toBe(
        '# Admins Only\n\nReset the gizmo with the master key.\n',
      );
      expect(
        ((await admin.callTool({ name: 'search', arguments: { query: 'master key' } })).structuredContent as any).results.map((r: any) => r.title),
      ).toEqual(['Admins Only']);
    }
    // Claims that do not satisfy the condition: still not found.
    const reader = await connect(`${base}/mcp`, { authorization: `Bearer ${await signed({ role: 'reader' })}` });
    expect((await reader.callTool({ name: 'read_page', arguments: { page: 'admins-only' } })).isError).toBe(true);
    // A forged token: the whole site is a 404, as for the HTML site.
    await expect(connect(`${base}/mcp?jwt_token=${token.slice(0, -4)}AAAA`)).rejects.toThrow(/404/);
  });

  it("unsigned claims the site's adaptive schema declares (?visitor.NAME=VALUE) open pages as on the HTML site", async () => {
    const beta = await spaceWith(s, org, 'Beta Docs', [
      page('x', 'Overview', 'All about the gizmo.'),
      page('y', 'Beta Flags', 'Turn on the turbo flag.', { condition: 'visitor.claims.unsigned.beta == true' }),
    ]);
    const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Beta Gizmo', spaces: [beta.space.id] });
    const o = `/v1/orgs/${org}/sites/${site.id}`;
    await call('PATCH', o, { adaptiveContent: { enabled: true } });
    await call('PUT', `${o}/adaptive-schema`, {
      jsonSchema: {
        type: 'object',
        properties: {
          unsigned: {
            type: 'object',
            description: 'Unsigned claims of the site visitor.',
            properties: { beta: { type: 'boolean', description: 'Beta tester' } },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
    });
    const url = (await call('POST', `${o}/publish`)).urls.published.split('?')[0];
    const read = async (c: Client) => (await c.callTool({ name: 'read_page', arguments: { page: 'beta-flags' } })).isError;
    expect(await read(await connect(`${url}/mcp`))).toBe(true);
    expect(await read(await connect(`${url}/mcp?visitor.beta=false`))).toBe(true);
    expect(await read(await connect(`${url}/mcp?visitor.beta=true`))).toBeFalsy();
    expect((await fetch(`${url}/beta-flags.md?visitor.beta=true`, { redirect: 'manual' })).status).toBe(302); // the HTML site takes the same input
  });

  it('a share-link site: 404 without its key (or with a forged one), open with ?share=KEY or its cookie', async () => {
    const site = await newSite('Shared Gizmo', { visibility: 'share-link' });
    const link = await call('POST', `${site.o}/share-links`, { name: 'Reviewers' });
    const key = new URL(link.urls.published).searchParams.get('share')!;
    await expect(connect(`${site.url}/mcp`)).rejects.toThrow(/404/);
    await expect(connect(`${site.url}/mcp?share=${'x'.repeat(40)}`)).rejects.toThrow(/404/);
    for (const client of [await connect(`${site.url}/mcp?share=${key}`), await connect(`${site.url}/mcp`, { cookie: `docs_share_${site.id}=${key}` })]) {
      const r = await client.callTool({ name: 'search', arguments: { query: 'gizmo daily' } });
      expect((r.structuredContent as any).results.map((x: any) => x.url)).toEqual([`${site.url}/usage`]);
    }
    // The link deactivated: its key opens nothing any more.
    await call('PATCH', `${site.o}/share-links/${link.id}`, { active: false });
    await expect(connect(`${site.url}/mcp?share=${key}`)).rejects.toThrow(/404/);
  });

  it('an unpublished site, or no site: 404 with a JSON-RPC error, the same for both; GET for a stream and DELETE: 405', async () => {
    const draft = await newSite('Draft Gizmo', {}, false);
    const orgKey = new URL(base).pathname.split('/')[2];
    const draftUrl = `${s.url}/sites/${orgKey}/${draft.basename}`;
    await expect(connect(`${draftUrl}/mcp`)).rejects.toThrow(/404/);
    const post = (url: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const [a, b] = [await post(`${draftUrl}/mcp`), await post(`${s.url}/sites/${orgKey}/no-such-site/mcp`)];
    expect([a.status, b.status]).toEqual([404, 404]);
    expect(await a.json()).toEqual(await b.json());

    // An oversized message: 413 with a JSON-RPC error naming the limit, as /mcp.
    const big = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: { query: 'x'.repeat(17 * 1024 * 1024) } } }),
    }).catch((err) => err as Error);
    if (!(big instanceof Error)) {
      expect(big.status).toBe(413);
      expect((await big.json()).error.message).toBe('body: larger than the limit of 16777216 bytes');
    }

    const stream = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(stream.status).toBe(405);
    expect(stream.headers.get('allow')).toBe('POST');
    expect((await fetch(`${base}/mcp`, { method: 'DELETE' })).status).toBe(405);
    // A browser's GET of that address stays the site's (here: no page `mcp`, the page saying what the address is for).
    const page = await fetch(`${base}/mcp`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<h1>MCP server</h1>');
  });
});
