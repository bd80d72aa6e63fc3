import { writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { withServer } from '../helpers/loopback.js';
import { runBoth } from '../helpers/parity.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// `docs sites context connections …` and `docs sites context records …`, the same scenario in
// process and over HTTP (docs/manual/site-context.md#connections-and-records), and the operations'
// transport parity.

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

async function scenario(env: Record<string, string>, website: string) {
  const run = async (args: string[], code = 0) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(code);
    return r;
  };
  const site = (await run(['sites', 'create', '--title', 'Context', '--json'])).json;
  const api = await run(['sites', 'context', 'connections', 'create', site.id, '--connector', 'api', '--no-search']);
  expect(api.stdout).toMatch(/^✓ Added a builtin:api connection \(\w+\), pending$/m);
  // Refused before anything is sent (the contract's enum), and by the server (a connector it cannot reach).
  const email = await run(['sites', 'context', 'connections', 'create', site.id, '--connector', 'email'], 2);
  expect(email.stderr).toContain('builtin:email cannot be reached from this server');
  const creds = await run(['sites', 'context', 'connections', 'create', site.id, '--url', 'https://u:p@example.com/'], 2);
  expect(creds.stderr).toContain('setupSettings.url: a URL with a user name or password');

  const web = (await run(['sites', 'context', 'connections', 'create', site.id, '--connector', 'website', '--url', website, '--json'])).json;
  expect(web.setupSettings.url).toBe(website);
  const tested = await run(['sites', 'context', 'connections', 'test', site.id, web.id]);
  expect(tested.stdout).toContain('✓ The connection reaches its source');
  const synced = await run(['sites', 'context', 'connections', 'sync', site.id, web.id]);
  expect(synced.stdout).toContain(`Synced connection ${web.id}`);
  const up = await run(['sites', 'context', 'connections', 'update', site.id, web.id, '--label', 'Help center', '--search-boost', 'x1.2']);
  expect(up.stdout).toMatch(/^✓ Updated connection \w+ \(builtin:website, succeeded\)$/m);
  const got = (await run(['sites', 'context', 'connections', 'get', site.id, web.id, '--json'])).json;
  expect(got).toMatchObject({ label: 'Help center', records: 1, usageSettings: { search: true, changeRequests: true, searchBoost: 'x1.2' } });

  const md = join(tempDir(), 'ticket.md');
  writeFileSync(md, '# Export fails\n\nThe CSV export times out.\n');
  const pushed = await run(['sites', 'context', 'records', 'push', site.id, '--id', 'T-9', '--type', 'ticket', '--title', 'Export fails', '--file', md]);
  expect(pushed.stdout).toContain(`Pushed to the builtin:api connection of site ${site.id}.`);
  const many = join(tempDir(), 'records.json');
  writeFileSync(
    many,
    JSON.stringify([
      { id: 'T-9', type: 'ticket', title: 'Export fails (again)', body: 'Still.' },
      { id: 'D-1', type: 'document', title: 'FAQ', body: 'Q&A' },
    ]),
  );
  await run(['sites', 'context', 'records', 'push', site.id, '--input', many]);
  const none = await run(['sites', 'context', 'records', 'push', site.id, '--title', 'No id'], 2);
  expect(none.stderr).toContain('--id: give a record');
  const table = await run(['sites', 'context', 'records', 'list', site.id, '--type', 'ticket']);
  expect(table.stdout).toMatch(/\tticket\tExport fails \(again\)\tbuiltin:api/);
  const listed = (await run(['sites', 'context', 'records', 'list', site.id, '--json'])).json.items;
  const one = (await run(['sites', 'context', 'records', 'get', site.id, listed[0].id, '--json'])).json;
  expect(one.id).toBe(listed[0].id);
  const conns = (await run(['sites', 'context', 'connections', 'list', site.id, '--json'])).json.items;

  const removed = await run(['sites', 'context', 'connections', 'delete', site.id, web.id, '--yes']);
  expect(removed.stdout).toContain(`Removed connection ${web.id} and its records.`);
  const again = await run(['sites', 'context', 'connections', 'delete', site.id, web.id, '--yes'], 3);
  expect(again.stderr).toContain('nothing removed');
  return {
    connections: conns.map((c: any) => [c.connector, c.status, c.records, c.usageSettings.search]),
    records: listed.map((r: any) => [r.type, r.title, r.connector]),
    after: (await run(['sites', 'context', 'records', 'list', site.id, '--json'])).json.items.map((r: any) => r.title),
  };
}

describe('docs sites context', () => {
  it('in process and over HTTP, the same', async () => {
    process.env.DOCS_FETCH_ALLOW_PRIVATE = '1';
    await withServer(
      (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Help</title></head><body><p>Hi</p></body></html>'),
      async (url) => {
        const local = await scenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_cli' }, `${url}/`);
        const remote = await scenario({ DOCS_API_URL: s.url, DOCS_TOKEN: s.token }, `${url}/`);
        expect(local).toEqual({
          connections: [
            ['builtin:api', 'pending', 2, false],
            ['builtin:website', 'succeeded', 1, true],
          ],
          records: [
            ['document', 'Help', 'builtin:website'],
            ['ticket', 'Export fails (again)', 'builtin:api'],
            ['document', 'FAQ', 'builtin:api'],
          ],
          after: ['Export fails (again)', 'FAQ'],
        });
        expect(remote).toEqual(local);
      },
    );
  });

  it('transport parity of the operations', async () => {
    const { local, remote } = await runBoth(s, async (t) => {
      const out: unknown[] = [];
      const org = ((await t.call('listOrganizationsForAuthenticatedUser', {})).body as any).items[0].id;
      const site = (await t.call('createSite', { path: { organizationId: org }, body: { title: 'Parity' } })).body as any;
      const p = { organizationId: org, siteId: site.id };
      const c = await t.call('createSiteContextConnection', { path: p, body: { connector: 'builtin:api' } });
      out.push(c.status, c.body);
      const cp = { ...p, siteContextConnectionId: (c.body as any).id };
      out.push((await t.call('upsertSiteContextRecords', { path: p, body: [{ id: 'a', type: 'ticket', title: 'A', body: 'a' }] })).status);
      const list = await t.call('listSiteContextRecords', { path: p, query: {} });
      out.push(list.body);
      out.push((await t.call('getSiteContextRecordById', { path: { ...p, siteContextRecordId: (list.body as any).items[0].id } })).body);
      out.push((await t.call('syncSiteContextConnection', { path: cp })).status);
      out.push((await t.call('testSiteContextConnection', { path: cp })).body);
      out.push((await t.call('updateSiteContextConnectionById', { path: cp, body: { label: 'L' } })).body);
      out.push((await t.call('getSiteContextConnectionById', { path: cp })).body);
      out.push((await t.call('listSiteContextConnections', { path: p, query: {} })).body);
      try {
        await t.call('createSiteContextConnection', { path: p, body: { connector: 'builtin:intercom', setupSettings: { token: 't' } } });
      } catch (e: any) {
        out.push(e.kind, e.message);
      }
      out.push((await t.call('deleteSiteContextConnectionById', { path: cp })).status);
      return out;
    });
    expect(remote).toEqual(local);
    expect(local).toContain('invalid');
  });

  it('as MCP tools: an agent pushes records (an array body) and reads them back; reads are marked read-only', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
    try {
      const tools = (await client.listTools()).tools.filter((t) => /SiteContext/.test(t.name));
      expect(tools.length).toBe(10);
      expect(
        tools
          .filter((t) => t.annotations?.readOnlyHint)
          .map((t) => t.name)
          .sort(),
      ).toEqual(['getSiteContextConnectionById', 'getSiteContextRecordById', 'listSiteContextConnections', 'listSiteContextRecords']);
      const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
      const site = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'MCP context' } })).body.id;
      const made = await client.callTool({
        name: 'createSiteContextConnection',
        arguments: { organizationId: org, siteId: site, body: { connector: 'builtin:api' } },
      });
      expect(made.isError, JSON.stringify(made.content)).toBeFalsy();
      const pushed = await client.callTool({
        name: 'upsertSiteContextRecords',
        arguments: { organizationId: org, siteId: site, body: [{ id: 'm-1', type: 'ticket', title: 'From an agent', body: 'Text.' }] },
      });
      expect(pushed.isError, JSON.stringify(pushed.content)).toBeFalsy();
      const listed = await client.callTool({ name: 'listSiteContextRecords', arguments: { organizationId: org, siteId: site } });
      expect((listed.structuredContent as any).items.map((r: any) => r.title)).toEqual(['From an agent']);
    } finally {
      await client.close();
    }
  });
});
