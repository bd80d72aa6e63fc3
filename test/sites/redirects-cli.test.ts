import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { runBoth } from '../helpers/parity.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// `docs sites redirects list|add|get|update|remove|import`, the same scenario in process and
// over HTTP (docs/manual/sites.md#redirects), and the operations' transport parity.

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

function folder(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'README.md'), '# Home\n\nWelcome.\n');
  mkdirSync(join(dir, 'guides'));
  writeFileSync(join(dir, 'guides', 'setup.md'), '# Setup\n\nInstall.\n');
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
  const site = (await run(['sites', 'create', '--title', 'Docs', '--spaces', space.id, '--json'])).json;
  await run(['sites', 'publish', site.id]);

  // A site path, normalised: `old/setup/` is `/old/setup`; `/guides/setup` is the page.
  const added = await run(['sites', 'redirects', 'add', site.id, '--source', 'old/setup/', '--destination', '/guides/setup']);
  expect(added.stdout).toMatch(/^✓ Added redirect \/old\/setup \(\w+\) \(302\)$/m);
  const got = (await run(['sites', 'redirects', 'get', site.id, '--source', '/old/setup', '--json'])).json;
  expect(got.redirect.destination.kind).toBe('site-page');
  expect(got.target).toMatch(/\/guides\/setup$/);
  const ext = (
    await run(['sites', 'redirects', 'add', site.id, '--source', '/blog/*', '--destination', 'https://blog.example.com', '--capture-wildcard', '--json'])
  ).json;
  expect(ext.destination).toEqual({ kind: 'external', url: 'https://blog.example.com/' });
  // Refused: a script URL (before sending), a loop (by the server); exit 2, nothing added.
  const js = await run(['sites', 'redirects', 'add', site.id, '--source', '/x', '--destination', 'javascript:alert(1)'], 2);
  expect(js.stderr).toContain('--destination: only http and https URLs may be destinations');
  const base = got.target.replace(/\/guides\/setup$/, '');
  await run(['sites', 'redirects', 'add', site.id, '--source', '/loop-a', '--destination', `${base}/loop-b`]);
  const loop = await run(['sites', 'redirects', 'add', site.id, '--source', '/loop-b', '--destination', `${base}/loop-a`], 2);
  expect(loop.stderr).toContain('destination: makes a redirect loop: /loop-b → /loop-a → /loop-b');
  const listed = (await run(['sites', 'redirects', 'list', site.id, '--order-by', 'source', '--json'])).json;
  expect(listed.items.map((r: any) => r.source)).toEqual(['/blog/*', '/loop-a', '/old/setup']);
  const table = await run(['sites', 'redirects', 'list', site.id, '--order-by', 'source']);
  expect(table.stdout).toMatch(/\/old\/setup\tsite-page\tfalse\tfalse/);

  const up = await run(['sites', 'redirects', 'update', site.id, got.redirect.id, '--permanent']);
  expect(up.stdout).toMatch(/^✓ Updated redirect \/old\/setup \(\w+\) \(permanent: 301\)$/m);

  // import: a .gitbook.yaml's redirects, relative to the space's address in the site.
  const yaml = join(tempDir(), '.gitbook.yaml');
  writeFileSync(yaml, 'redirects:\n  previous/setup: guides/setup.md\n  start: README.md\n  gone: missing.md\n');
  const imported = await run(['sites', 'redirects', 'import', site.id, '--file', yaml], 1);
  expect(imported.stdout).toContain('✓ created /previous/setup');
  expect(imported.stdout).toContain('✓ created /start');
  expect(imported.stdout).toMatch(/✗ \/gone: redirects\[2\]\.destination\.path: no page at "missing\.md"/);
  expect(imported.stdout).toContain('2 of 3 redirects imported, 1 refused');

  const removed = await run(['sites', 'redirects', 'remove', site.id, ext.id, '--yes']);
  expect(removed.stdout).toContain(`Removed redirect ${ext.id}`);
  const again = await run(['sites', 'redirects', 'remove', site.id, ext.id, '--yes'], 3);
  expect(again.stderr).toContain('nothing removed');
  return (await run(['sites', 'redirects', 'list', site.id, '--order-by', 'source', '--json'])).json.items.map((r: any) => [
    r.source,
    r.permanent,
    r.destination.kind,
  ]);
}

describe('docs sites redirects', () => {
  it('in process and over HTTP, the same', async () => {
    const local = await scenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_cli' });
    const remote = await scenario({ DOCS_API_URL: s.url, DOCS_TOKEN: s.token });
    expect(local).toEqual([
      ['/loop-a', false, 'external'],
      ['/old/setup', true, 'site-page'],
      ['/previous/setup', false, 'site-page'],
      ['/start', false, 'site-space'],
    ]);
    expect(remote).toEqual(local);
  });

  it('transport parity of the operations', async () => {
    const { local, remote } = await runBoth(s, async (t) => {
      const out: unknown[] = [];
      const org = ((await t.call('listOrganizationsForAuthenticatedUser', {})).body as any).items[0].id;
      const space = (await t.call('createSpace', { path: { organizationId: org }, body: { title: 'P' } })).body as any;
      const site = (await t.call('createSite', { path: { organizationId: org }, body: { title: 'Parity', spaces: [space.id] } })).body as any;
      const p = { organizationId: org, siteId: site.id };
      const r = await t.call('createSiteRedirect', { path: p, body: { source: '/a', destination: { kind: 'external', url: 'https://example.com/' } } });
      out.push(r.status, r.body);
      out.push(
        (
          await t.call('bulkUpsertSiteRedirects', {
            path: p,
            body: { redirects: [{ source: '/b', destination: { kind: 'path', spaceId: space.id, path: '' } }] },
          })
        ).body,
      );
      out.push((await t.call('listSiteRedirects', { path: p, query: { orderBy: 'source' } })).body);
      out.push((await t.call('getSiteRedirectBySource', { path: p, query: { source: '/a' } })).body);
      out.push((await t.call('updateSiteRedirectById', { path: { ...p, siteRedirectId: (r.body as any).id }, body: { permanent: true } })).body);
      out.push((await t.call('deleteSiteRedirectById', { path: { ...p, siteRedirectId: (r.body as any).id } })).status);
      try {
        await t.call('createSiteRedirect', { path: p, body: { source: '/c/../d', destination: { kind: 'external', url: 'https://example.com/' } } });
      } catch (e: any) {
        out.push(e.kind, e.message);
      }
      return out;
    });
    expect(remote).toEqual(local);
    expect(local).toContain("source: '.' and '..' segments are not allowed (\"/c/../d\")");
  });
});

describe('content push: .gitbook.yaml redirects → the site redirects', () => {
  it('upserts them into the sites of the space (one bulk call), lists them in --dry-run, keeps the file for pull', async () => {
    const env = { DOCS_API_URL: s.url, DOCS_TOKEN: s.token };
    const dir = folder();
    writeFileSync(join(dir, '.gitbook.yaml'), 'redirects:\n  old/setup: guides/setup.md\n  home: README.md\n');
    const space = (await docs(['spaces', 'create', '--title', 'Yaml', '--json'], env)).json;
    const site = (await docs(['sites', 'create', '--title', 'Yaml site', '--spaces', space.id, '--json'], env)).json;
    const dry = await docs(['content', 'push', dir, '--space', space.id, '--merge', '--dry-run'], env);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`Would upsert 2 redirects into site ${site.id}:`);
    expect(dry.stdout).toContain('/old/setup → guides/setup');
    expect((await docs(['sites', 'redirects', 'list', site.id, '--json'], env)).json.items).toEqual([]);
    const pushed = await docs(['content', 'push', dir, '--space', space.id, '--merge'], env);
    expect(pushed.status, pushed.stderr).toBe(0);
    expect(pushed.stdout).toContain(`Redirects of site ${site.id}: 2 of 2 upserted`);
    const listed = (await docs(['sites', 'redirects', 'list', site.id, '--order-by', 'source', '--json'], env)).json.items;
    expect(listed.map((r: any) => [r.source, r.destination.kind])).toEqual([
      ['/home', 'site-space'],
      ['/old/setup', 'site-page'],
    ]);
    // Pushing again: nothing changes in the space, the redirects are upserted (updated), not doubled.
    const again = await docs(['content', 'push', dir, '--space', space.id, '--merge', '--json'], env);
    expect(again.json.redirects[0].results.map((r: any) => r.status)).toEqual(['updated', 'updated']);
    // Pull writes the file back as it was.
    const out = tempDir();
    expect((await docs(['content', 'pull', out, '--space', space.id], env)).status).toBe(0);
    expect(readFileSync(join(out, '.gitbook.yaml'), 'utf8')).toBe('redirects:\n  old/setup: guides/setup.md\n  home: README.md\n');
  });
});
