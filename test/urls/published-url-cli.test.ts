import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { connectMcp, toolText } from '../helpers/mcp.js';
import { runBoth } from '../helpers/parity.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// `docs urls published|published-resolve` and `docs sites search|search-prewarm|preview-url`, the
// same scenario in process and over HTTP; the operations' transport parity; MCP tools.

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s?.stop());

function folder(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'README.md'), '# Home\n\nWelcome.\n');
  mkdirSync(join(dir, 'guides'));
  writeFileSync(join(dir, 'guides', 'setup.md'), '# Setup\n\nInstall the walrus agent.\n');
  return dir;
}

async function scenario(env: Record<string, string>) {
  const run = async (args: string[], code = 0) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(code);
    return r;
  };
  const space = (await run(['spaces', 'create', '--title', 'Guide', '--json'])).json;
  await run(['content', 'push', folder(), '--space', space.id, '--merge']);
  const site = (await run(['sites', 'create', '--title', 'Lookup CLI', '--spaces', space.id, '--json'])).json;
  const url = (await run(['sites', 'publish', site.id, '--json'])).json.urls.published;

  const found = (await run(['urls', 'published', '--url', `${url}/guides/setup`, '--json'])).json;
  expect(found).toMatchObject({ site: site.id, space: space.id, pathname: 'guides/setup' });
  expect(found.apiToken).toMatch(/^gb_pub_/);
  const resolved = await run([
    'urls',
    'published-resolve',
    '--url',
    `${url}/guides/setup`,
    '--visitor',
    '{"unsignedClaims":{"plan":"pro"}}',
    '--jq',
    '.pathname',
  ]);
  expect(resolved.stdout.trim()).toBe('guides/setup');
  const missing = await run(['urls', 'published', '--url', `${url}/nowhere`], 3);
  expect(missing.stderr).toContain('is not the address of a page of a site published by this server');
  const hostile = await run(['urls', 'published', '--url', 'file:///etc/passwd'], 2);
  expect(hostile.stderr).toContain('--url');

  const hits = (await run(['sites', 'search', site.id, '--query', 'walrus', '--json'])).json;
  expect(hits.items.map((i: any) => i.pages.map((p: any) => p.title))).toEqual([['Setup']]);
  const table = await run(['sites', 'search', site.id, '--query', 'walrus']);
  expect(table.stdout).toContain('Guide');
  expect((await run(['sites', 'search-prewarm', site.id])).stdout).toContain('Search of the site is warm');
  const draft = (await run(['sites', 'preview-url', site.id, '--jq', '.url'])).stdout.trim();
  expect(draft).toMatch(new RegExp(`/o/\\w+/sites/${site.id}$`));
  const live = (await run(['sites', 'preview-url', site.id, '--no-draft', '--claims', '(plan:pro)', '--jq', '.url'])).stdout.trim();
  expect(live).toBe(`${url}?visitor.plan=pro`);
  const bad = await run(['sites', 'preview-url', site.id, '--no-draft', '--claims', 'plan:pro'], 2);
  expect(bad.stderr).toContain('claims');
  return [found.pathname, hits.items.length, live.endsWith('?visitor.plan=pro')];
}

describe('docs urls published, docs sites search|search-prewarm|preview-url', () => {
  it('in process and over HTTP, the same', async () => {
    const local = await scenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_urls_pub' });
    const remote = await scenario({ DOCS_API_URL: s.url, DOCS_TOKEN: s.token });
    expect(local).toEqual(['guides/setup', 1, true]);
    expect(remote).toEqual(local);
  }, 180_000);

  it('transport parity of the operations', async () => {
    const { local, remote } = await runBoth(s, async (t) => {
      const out: unknown[] = [];
      const org = ((await t.call('listOrganizationsForAuthenticatedUser', {})).body as any).items[0].id;
      const space = (await t.call('createSpace', { path: { organizationId: org }, body: { title: 'P' } })).body as any;
      const site = (await t.call('createSite', { path: { organizationId: org }, body: { title: 'Parity lookup', spaces: [space.id] } })).body as any;
      const p = { organizationId: org, siteId: site.id };
      const url = ((await t.call('publishSite', { path: p })).body as any).urls.published;
      const strip = ({ apiToken, ...rest }: any) => ({ ...rest, apiToken: typeof apiToken });
      out.push(strip((await t.call('getPublishedContentByUrl', { query: { url } })).body));
      out.push(strip((await t.call('resolvePublishedContentByUrl', { body: { url } })).body));
      for (const bad of [`${url}/nowhere`, 'ftp://example.com/']) {
        try {
          await t.call('getPublishedContentByUrl', { query: { url: bad } });
        } catch (e: any) {
          out.push(e.kind);
        }
      }
      out.push((await t.call('searchSiteContent', { path: p, body: { query: 'anything', scope: { mode: 'all' } } })).body);
      out.push((await t.call('prewarmSiteSearch', { path: p })).status);
      out.push((await t.call('getSitePublishingPreviewById', { path: p, query: { draft: false } })).body);
      return out;
    });
    expect(local).toEqual(remote);
    expect(local[2]).toBe('not_found');
    expect(local[3]).toBe('invalid');
  }, 120_000);
});

describe('through MCP', () => {
  it('getPublishedContentByUrl and searchSiteContent are tools with the same rules', async () => {
    const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'MCP lookup' } })).body;
    const site = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'MCP lookup', spaces: [space.id] } })).body;
    const url = (await s.api('POST', `/v1/orgs/${org}/sites/${site.id}/publish`)).body.urls.published;
    const agent = await connectMcp(s.url, s.token);
    const outsider = await addUser(s.ctx);
    const other = await connectMcp(s.url, outsider.token);
    try {
      const r = await agent.callTool({ name: 'getPublishedContentByUrl', arguments: { url } });
      expect(r.isError).toBeFalsy();
      expect(toolText(r)).toContain(site.id);
      const q = await agent.callTool({
        name: 'searchSiteContent',
        arguments: { organizationId: org, siteId: site.id, body: { query: 'x', scope: { mode: 'all' } } },
      });
      expect(q.isError, toolText(q)).toBeFalsy();
      const refused = await other.callTool({
        name: 'searchSiteContent',
        arguments: { organizationId: org, siteId: site.id, body: { query: 'x', scope: { mode: 'all' } } },
      });
      expect(refused.isError).toBe(true);
    } finally {
      await agent.close();
      await other.close();
    }
  });
});
