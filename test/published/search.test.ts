import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, byTag, get, links, mainOf, page, spaceWith, textOf } from './fixture.js';

// Search over a published site (a plain GET form and a JSON route), and what the site publishes
// for machines: llms.txt, llms-full.txt, pages as markdown, sitemap.xml, robots.txt.

let s: TestServer;
let base: string;
let path: string;

beforeAll(async () => {
  s = await startServer();
  const call = api(s);
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  const guides = await spaceWith(s, org, 'Guides', [
    page('a', 'Installation', 'Install the widget.\n\n## Upgrading\n\nInstall again to upgrade the widget.', { description: 'How to install' }),
    page('b', 'Usage', 'Use the widget daily.'),
    page('c', 'Staff Notes', 'Install the widget for staff.', { condition: 'visitor.claims.role === "admin"' }),
    page('d', 'Unlisted Notes', 'Install in secret.', { hidden: true }),
  ]);
  const apiSpace = await spaceWith(s, org, 'API', [page('e', 'Widget API', 'Call the widget endpoint.')]);
  await spaceWith(s, org, 'Elsewhere', [page('f', 'Other Widget', 'A widget outside the site.')]);
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Search Site' });
  const o = `/v1/orgs/${org}/sites/${site.id}`;
  await call('POST', `${o}/sections`, { spaceId: guides.space.id, title: 'Guides' });
  await call('POST', `${o}/sections`, { spaceId: apiSpace.space.id, title: 'Reference' });
  base = (await call('POST', `${o}/publish`)).urls.published;
  path = new URL(base).pathname;
}, 60_000);
afterAll(() => s?.stop());

describe('search', () => {
  it('JSON: results grouped by section and space, only pages of the site the visitor may see', async () => {
    const r = await fetch(`${base}/~/search.json?q=widget`);
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body.query).toBe('widget');
    const flat = body.groups.map((g: any) => [g.section, g.space, g.pages.map((p: any) => p.title).sort()]);
    expect(flat).toEqual(
      expect.arrayContaining([
        ['Guides', 'Guides', ['Installation', 'Usage']],
        ['Reference', 'API', ['Widget API']],
      ]),
    );
    expect(flat).toHaveLength(2);
    const install = body.groups.find((g: any) => g.space === 'Guides').pages.find((p: any) => p.title === 'Installation');
    expect(install.url).toBe(`${path}/installation`);
    expect(install.sections.map((x: any) => x.url)).toContain(`${path}/installation#upgrading`);
    const empty = await (await fetch(`${base}/~/search.json?q=`)).json();
    expect(empty.groups).toEqual([]);
  });

  it('HTML: a GET form on every page, results as links, no script needed', async () => {
    const home = await get(s, base);
    const form = byTag(home.doc, 'form').find((f) => f.attrs.some((a: any) => a.name === 'role' && a.value === 'search'));
    expect(form.attrs.find((a: any) => a.name === 'action').value).toBe(`${path}/~/search`);
    expect(form.attrs.find((a: any) => a.name === 'method').value).toBe('get');
    const r = await get(s, `${base}/~/search?q=upgrade`);
    expect(r.status).toBe(200);
    const main = mainOf(r.doc);
    expect(textOf(main)).toContain('1 result for “upgrade”');
    expect(links(main).map((l) => l.href)).toEqual([`${path}/installation`, `${path}/installation#upgrading`]);
    expect(textOf(mainOf((await get(s, `${base}/~/search?q=zzzznothing`)).doc))).toContain('No results');
    // Markup in the query is text.
    expect((await get(s, `${base}/~/search?q=${encodeURIComponent('<script>x</script>')}`)).text).not.toContain('<script>x');
  });
});

describe('for machines and agents', () => {
  it('llms.txt lists the pages the visitor may see as markdown links; each page as markdown at its URL + .md', async () => {
    const r = await fetch(`${base}/llms.txt`);
    expect(r.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const text = await r.text();
    expect(text).toContain('# Search Site');
    expect(text).toContain('## Guides / Guides');
    expect(text).toContain(`- [Installation](${base}/installation.md): How to install`);
    expect(text).toContain(`- [Widget API](${base}/reference/widget-api.md)`);
    expect(text).not.toContain('Staff Notes');
    expect(text).not.toContain('Unlisted Notes');
    expect(text).not.toContain('Other Widget');
    const md = await fetch(`${base}/installation.md`);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await md.text()).toBe('# Installation\n\nInstall the widget.\n\n## Upgrading\n\nInstall again to upgrade the widget.\n');
    expect((await fetch(`${base}/staff-notes.md`)).status).toBe(404);
  });

  it('llms-full.txt has every visible page as markdown', async () => {
    const text = await (await fetch(`${base}/llms-full.txt`)).text();
    expect(text).toContain('Use the widget daily.');
    expect(text).toContain('Call the widget endpoint.');
    expect(text).not.toContain('for staff');
  });

  it('sitemap.xml and robots.txt', async () => {
    const sm = await (await fetch(`${base}/sitemap.xml`)).text();
    const locs = [...sm.matchAll(/<loc>(.*?)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([`${base}/installation`, `${base}/usage`, `${base}/reference/widget-api`]);
    expect(await (await fetch(`${base}/robots.txt`)).text()).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${base}/sitemap.xml\n`);
  });
});

describe('for agents in process (sitePagesForVisitor, pageMarkdownForVisitor)', () => {
  it('lists the pages a visitor may see and gives a page as markdown; nothing for a site they may not see', async () => {
    const { sitePagesForVisitor, pageMarkdownForVisitor } = await import('../../src/published/agents.js');
    const site = await sitePagesForVisitor(s.ctx, base);
    expect(site!.title).toBe('Search Site');
    expect(site!.pages.map((p) => [p.section, p.space, p.title, p.url])).toEqual([
      ['Guides', 'Guides', 'Installation', `${base}/installation`],
      ['Guides', 'Guides', 'Usage', `${base}/usage`],
      ['Reference', 'API', 'Widget API', `${base}/reference/widget-api`],
    ]);
    expect((await pageMarkdownForVisitor(s.ctx, `${base}/usage`))!.markdown).toBe('# Usage\n\nUse the widget daily.\n');
    expect(await pageMarkdownForVisitor(s.ctx, `${base}/staff-notes`)).toBeUndefined();
    expect(await sitePagesForVisitor(s.ctx, `${s.url}/sites/nobody/nothing`)).toBeUndefined();
    expect(await sitePagesForVisitor(s.ctx, base, { token: 'forged.token.here' })).toBeUndefined();
  });
});
