import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs, type CliResult } from '../helpers/cli.js';
import { connectMcp, toolText } from '../helpers/mcp.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// The URL and user commands (docs urls resolve|embed, spaces embed, users get|update, subdomains
// get, orgs for-domain) behave the same in-process and over HTTP, and the operations are MCP tools.
// Over HTTP the in-process CLI talks to the server this process runs.

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s?.stop());

const OWNER = 'gb_api_urls_cli_owner';
type Run = (args: string[], env: Record<string, string>) => Promise<CliResult>;
const transports: [string, () => { env: Record<string, string>; args: string[]; run: Run }][] = [
  ['in-process', () => ({ env: { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: OWNER }, args: [], run: async (a, e) => await docs(a, e) })],
  ['over HTTP', () => ({ env: {}, args: ['--api-url', s.url, '--token', s.token], run: (a, e) => docs(a, e) })],
];

describe.each(transports)('URL and user commands %s', (_name, setup) => {
  it('resolve and embed app URLs, read and change users, subdomains and organizations by domain', async () => {
    const { env, args, run } = setup();
    const ok = async (...a: string[]) => {
      const r = await run([...a, ...args], env);
      expect(r.status, `${a.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    const org = (await ok('orgs', 'list', '--json')).json.items[0].id;
    const space = (await ok('spaces', 'create', '--org', org, '--title', 'CLI guide', '--json')).json;
    const resolved = (await ok('urls', 'resolve', '--url', space.urls.app, '--json')).json;
    expect(resolved.space.id).toBe(space.id);
    expect((await ok('urls', 'embed', '--url', space.urls.app, '--jq', '.title')).stdout.trim()).toBe('CLI guide');
    expect((await ok('spaces', 'embed', space.id, '--url', 'https://github.com/acme/api', '--json')).json).toEqual({
      type: 'link',
      title: 'github.com/acme/api',
      site: 'github.com',
    });
    const missing = await run(['urls', 'resolve', '--url', `${space.urls.app}/no-such-page`, ...args], env);
    expect(missing.status, missing.stderr).toBe(3);

    const me = (await ok('users', 'update', 'me', '--display-name', 'Ann Lee', '--json')).json;
    expect(me.displayName).toBe('Ann Lee');
    expect((await ok('users', 'get', me.id, '--jq', '.displayName')).stdout.trim()).toBe('Ann Lee');
    const bad = await run(['users', 'update', 'me', '--photo-url', 'javascript:alert(1)', ...args], env);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--photo-url: must be an http(s) URL');
    expect((await ok('users', 'get', me.id, '--json')).json.photoURL).toBeUndefined();

    const hostname = `docs-${Math.random().toString(36).slice(2, 8)}`;
    await ok('orgs', 'update', org, '--hostname', hostname);
    expect((await ok('subdomains', 'get', hostname, '--json')).json.target).toEqual({ type: 'organization', organization: org });
    const domain = `${hostname}.test`;
    await ok('orgs', 'update', org, '--email-domains', domain);
    expect((await ok('orgs', 'for-domain', domain, '--json')).json.organizations.map((o: any) => o.id)).toEqual([org]);
  }, 180_000);
});

describe('through MCP', () => {
  it('getContentByUrl and updateUserById are tools with the same rules', async () => {
    const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'MCP guide' } })).body;
    const agent = await connectMcp(s.url, s.token);
    const outsider = await addUser(s.ctx);
    const other = await connectMcp(s.url, outsider.token);
    try {
      const r = await agent.callTool({ name: 'getContentByUrl', arguments: { url: space.urls.app } });
      expect(r.isError).toBeFalsy();
      expect(toolText(r)).toContain(space.id);
      const hidden = await other.callTool({ name: 'getContentByUrl', arguments: { url: space.urls.app } });
      expect(hidden.isError).toBe(true);
      const me = (await s.api('GET', '/v1/user')).body.id;
      const refused = await other.callTool({ name: 'updateUserById', arguments: { userId: me, displayName: 'Taken over' } });
      expect(refused.isError).toBe(true);
      expect((await s.api('GET', '/v1/user')).body.displayName).not.toBe('Taken over');
    } finally {
      await agent.close();
      await other.close();
    }
  });
});
