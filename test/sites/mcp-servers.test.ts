import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { toolText } from '../helpers/mcp.js';
import { runBoth } from '../helpers/parity.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { api, page, spaceWith } from '../published/fixture.js';

// Site MCP servers (docs/manual/site-delivery.md#site-mcp-servers): the configuration of a
// site's MCP endpoint (which tools, which spaces, which headers a client sends), honoured by the
// site's `/mcp`: a tool left out is not listed nor callable, a space left out is not searched
// nor read.

let s: TestServer;
let call: ReturnType<typeof api>;
let org: string;
let a: string;
let b: string;
let site: { id: string; o: string; url: string };
const clients: Client[] = [];
beforeAll(async () => {
  s = await startServer();
  call = api(s);
  org = (await call('GET', '/v1/orgs')).items[0].id;
  a = (await spaceWith(s, org, 'Alpha', [page('a', 'Alpha page', '# Alpha page\n\nThe zebracorn lives here.\n')])).space.id;
  b = (await spaceWith(s, org, 'Beta', [page('b', 'Beta page', '# Beta page\n\nThe quokkafish lives here.\n')])).space.id;
  const created = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Agents site', spaces: [a, b] });
  const o = `/v1/orgs/${org}/sites/${created.id}`;
  site = { id: created.id, o, url: (await call('POST', `${o}/publish`)).urls.published.split('?')[0] };
}, 60_000);
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await s?.stop();
});

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  clients.push(client);
  return client;
}
const rpc = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });

describe('site MCP servers', () => {
  it('configures the site /mcp: a tool left out is not served, a space left out is not searched nor read', async () => {
    // Before: both tools, both spaces.
    let c = await connect(`${site.url}/mcp`);
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['search', 'read_page']);
    expect(toolText(await c.callTool({ name: 'search', arguments: { query: 'quokkafish' } }))).toContain('Beta page');

    const made = await s.api('POST', `${site.o}/mcp-servers`, {
      body: { name: 'Public agents', url: `${site.url}/mcp?tools=search&spaces=${a}`, headers: {} },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toEqual({
      object: 'site-mcp-server',
      id: made.body.id,
      name: 'Public agents',
      url: `${site.url}/mcp?tools=search&spaces=${a}`,
      transport: 'http',
      headers: {},
      urls: { location: `${s.url}${site.o}/mcp-servers/${made.body.id}` },
    });
    expect(made.headers.get('location')).toBe(made.body.urls.location);
    c = await connect(`${site.url}/mcp`);
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['search']);
    expect(toolText(await c.callTool({ name: 'search', arguments: { query: 'zebracorn' } }))).toContain('Alpha page');
    expect(toolText(await c.callTool({ name: 'search', arguments: { query: 'quokkafish' } }))).toBe('No results for "quokkafish".');
    const disabled = await c
      .callTool({ name: 'read_page', arguments: { page: 'beta-page' } })
      .catch((e) => ({ isError: true, content: [{ text: String(e) }] }));
    expect(disabled.isError).toBe(true);

    // read_page back, the space still left out: its pages are not found, the other's are.
    const up = await s.api('PATCH', `${site.o}/mcp-servers/${made.body.id}`, { body: { url: `${site.url}/mcp?spaces=${a}` } });
    expect(up.status).toBe(200);
    c = await connect(`${site.url}/mcp`);
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['search', 'read_page']);
    const paths = (await call('GET', `${site.o}/site-spaces`)).items.map((x: any) => [x.space.id, x.path]);
    const bPath = paths.find((p: any) => p[0] === b)[1];
    const closed = await c.callTool({ name: 'read_page', arguments: { page: `${bPath}/beta-page` } });
    expect(closed.isError).toBe(true);
    expect(toolText(closed)).toContain('not found');
    const open = await c.callTool({ name: 'read_page', arguments: { page: 'alpha-page' } /* Alpha is the default site space: no path segment */ });
    expect(toolText(open)).toContain('zebracorn');

    // Removed: everything again.
    expect((await s.api('DELETE', `${site.o}/mcp-servers/${made.body.id}`)).status).toBe(205);
    expect((await s.api('DELETE', `${site.o}/mcp-servers/${made.body.id}`)).status).toBe(204);
    c = await connect(`${site.url}/mcp`);
    expect(toolText(await c.callTool({ name: 'search', arguments: { query: 'quokkafish' } }))).toContain('Beta page');
  });

  it('a second endpoint at /mcp/<slug>, open to clients sending its headers only', async () => {
    expect((await rpc(`${site.url}/mcp/partners`)).status).toBe(404);
    const made = await s.api('POST', `${site.o}/mcp-servers`, {
      body: { name: 'Partners', url: `${site.url}/mcp/partners?spaces=${b}`, headers: { 'X-Partner-Key': 'k-123' } },
    });
    expect(made.status).toBe(201);
    expect((await rpc(`${site.url}/mcp/partners`)).status).toBe(404);
    expect((await rpc(`${site.url}/mcp/partners`, { 'x-partner-key': 'wrong' })).status).toBe(404);
    const c = await connect(`${site.url}/mcp/partners`, { 'X-Partner-Key': 'k-123' });
    expect(toolText(await c.callTool({ name: 'search', arguments: { query: 'zebracorn' } }))).toBe('No results for "zebracorn".');
    expect(toolText(await c.callTool({ name: 'search', arguments: { query: 'quokkafish' } }))).toContain('Beta page');
    // The site's /mcp is untouched by it.
    expect((await rpc(`${site.url}/mcp`)).status).toBe(200);
    const listed = await s.api('GET', `${site.o}/mcp-servers`);
    expect(listed.body.items.map((x: any) => x.name)).toEqual(['Partners']);
    expect((await s.api('GET', `${site.o}/mcp-servers/${made.body.id}`)).body.headers).toEqual({ 'x-partner-key': 'k-123' });
    await s.api('DELETE', `${site.o}/mcp-servers/${made.body.id}`);
  });

  it('refuses bad configurations (400, nothing stored), a second record for one endpoint (409), non-admins (403)', async () => {
    const bad = async (body: object, message: string, status = 400) => {
      const r = await s.api('POST', `${site.o}/mcp-servers`, { body: { name: 'X', headers: {}, ...body } });
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(r.body.error.message).toBe(message);
    };
    await bad({ url: `${site.url}/mcp?tools=delete_everything` }, 'url: tools must name some of search, read_page (got delete_everything)');
    await bad({ url: `${site.url}/mcp?spaces=nope` }, `url: spaces must name spaces of site ${site.id} (nope is not one)`);
    await bad(
      { url: `${site.url}/elsewhere` },
      "url: the path must be the site's MCP endpoint, <site URL>/mcp or <site URL>/mcp/<slug> (got " + new URL(site.url).pathname + '/elsewhere)',
    );
    await bad({ url: `${site.url}/mcp?debug=1` }, 'url: unknown parameter debug (parameters: tools, spaces)');
    await bad({ url: `${site.url}/mcp`, headers: { Authorization: 'x' } }, 'headers: Authorization cannot be required (the transport sets it)');
    expect((await s.api('GET', `${site.o}/mcp-servers`)).body.items).toEqual([]);
    const first = await s.api('POST', `${site.o}/mcp-servers`, { body: { name: 'One', url: `${site.url}/mcp`, headers: {} } });
    await bad({ url: `${site.url}/mcp?tools=search` }, `url: another MCP server of site ${site.id} configures /mcp`, 409);
    const editor = await addUser(s.ctx, org, 'edit');
    expect((await s.api('POST', `${site.o}/mcp-servers`, { token: editor.token, body: { name: 'E', url: `${site.url}/mcp/e`, headers: {} } })).status).toBe(
      403,
    );
    expect((await s.api('GET', `${site.o}/mcp-servers`, { token: editor.token })).status).toBe(200);
    await s.api('DELETE', `${site.o}/mcp-servers/${first.body.id}`);
  });
});

async function cliScenario(env: Record<string, string>) {
  const run = async (args: string[], code = 0) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(code);
    return r;
  };
  const space = (await run(['spaces', 'create', '--title', 'G', '--json'])).json;
  const st = (await run(['sites', 'create', '--title', 'Mcp site', '--spaces', space.id, '--json'])).json;
  const url = `https://docs.example.com/mcp?tools=search&spaces=${space.id}`;
  const made = (await run(['sites', 'mcp-servers', 'create', st.id, '--name', 'Agents', '--url', url, '--json'])).json;
  const bad = await run(['sites', 'mcp-servers', 'create', st.id, '--name', 'Bad', '--url', 'https://docs.example.com/mcp?tools=rm'], 2);
  expect(bad.stderr).toContain('tools must name some of search, read_page');
  const listed = await run(['sites', 'mcp-servers', 'list', st.id]);
  expect(listed.stdout).toContain('Agents');
  await run(['sites', 'mcp-servers', 'update', st.id, made.id, '--name', 'Agents 2']);
  const got = (await run(['sites', 'mcp-servers', 'get', st.id, made.id, '--json'])).json;
  await run(['sites', 'mcp-servers', 'delete', st.id, made.id, '--yes']);
  return [got.name, got.url.replace(space.id, 'SPACE')];
}

describe('docs sites mcp-servers', () => {
  it('in process and over HTTP, the same', async () => {
    const local = await cliScenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_cli' });
    const remote = await cliScenario({ DOCS_API_URL: s.url, DOCS_TOKEN: s.token });
    expect(local).toEqual(['Agents 2', 'https://docs.example.com/mcp?tools=search&spaces=SPACE']);
    expect(remote).toEqual(local);
  });

  it('transport parity of the operations', async () => {
    const { local, remote } = await runBoth(s, async (t) => {
      const out: unknown[] = [];
      const organizationId = ((await t.call('createOrganization', { body: { title: 'Parity mcp' } })).body as any).id;
      const st = (await t.call('createSite', { path: { organizationId }, body: { title: 'Parity' } })).body as any;
      const p = { organizationId, siteId: st.id };
      const made = await t.call('createSiteMcpServer', {
        path: p,
        body: { name: 'A', url: 'https://x.example.com/mcp?tools=search', headers: { 'X-K': 'v' } },
      });
      out.push(made.status, made.body);
      const id = (made.body as any).id;
      out.push((await t.call('listSiteMcpServers', { path: p })).body);
      out.push((await t.call('getSiteMcpServerById', { path: { ...p, siteMcpServerId: id } })).body);
      out.push((await t.call('updateSiteMcpServerById', { path: { ...p, siteMcpServerId: id }, body: { name: 'B' } })).body);
      out.push((await t.call('deleteSiteMcpServerById', { path: { ...p, siteMcpServerId: id } })).status);
      return out;
    });
    expect(remote).toEqual(local);
  });
});
