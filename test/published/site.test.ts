import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, attrOf, byClass, byLabel, byTag, edit, get, h1, links, mainOf, page, spaceWith, textOf } from './fixture.js';

// A published site served by `docs serve` at its `urls.published`: structure, pages, 404, moves.

let s: TestServer;
let org: string;
let call: ReturnType<typeof api>;
let site: any;
let guides: Awaited<ReturnType<typeof spaceWith>>;
let published: string;

beforeAll(async () => {
  s = await startServer();
  call = api(s);
  org = (await call('GET', '/v1/orgs')).items[0].id;
  guides = await spaceWith(s, org, 'Guides', [
    page('start', 'Getting Started', 'Welcome.\n\n## Install\n\nRun it.\n\n### On Linux\n\nApt.'),
    page('adv', 'Advanced', 'Advanced things.'),
    page('deep', 'Deep Dive', 'Deeper.', { into: 'adv' }),
    page('secret', 'Hidden Page', 'Not listed.', { hidden: true }),
  ]);
  const v2 = await spaceWith(s, org, 'API v2', [page('ref', 'Reference', 'The v2 reference.')]);
  const v1 = await spaceWith(s, org, 'API v1', [page('ref', 'Reference', 'The v1 reference.')]);
  site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Acme Docs' });
  const o = `/v1/orgs/${org}/sites/${site.id}`;
  await call('POST', `${o}/sections`, { spaceId: guides.space.id, title: 'Guides' });
  const apiSection = await call('POST', `${o}/sections`, { spaceId: v2.space.id, title: 'API' });
  await call('POST', `${o}/site-spaces`, { spaceId: v1.space.id, sectionId: apiSection.id });
  site = await call('POST', `${o}/publish`);
  published = site.urls.published;
}, 60_000);
afterAll(() => s?.stop());

describe('published site: structure and pages', () => {
  it('answers at urls.published with the default section and site space, its first page, in HTML', async () => {
    expect(published).toBe(`${s.url}/sites/${org}/acme-docs`);
    const r = await get(s, published);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(h1(r.doc)).toBe('Getting Started');
    expect(textOf(byTag(r.doc, 'title')[0])).toBe('Getting Started | Acme Docs');
    // Sections as top navigation, the current one marked.
    const sections = byLabel(r.doc, 'Sections');
    expect(links(sections)).toEqual([
      { text: 'Guides', href: `/sites/${org}/acme-docs` },
      { text: 'API', href: `/sites/${org}/acme-docs/api` },
    ]);
    expect(attrOf(byTag(sections, 'a')[0], 'aria-current')).toBe('page');
    // The sidebar: the whole page tree without the hidden page; a branch outside the current
    // page's is closed (for the script: its arrow says aria-expanded=false; without script it shows).
    const side = byLabel(r.doc, 'Pages');
    expect(links(side).map((l) => l.text)).toEqual(['Getting Started', 'Advanced', 'Deep Dive']);
    const arrow = byTag(side, 'button')[0];
    expect([attrOf(arrow, 'aria-expanded'), attrOf(arrow, 'aria-label')]).toEqual(['false', 'Advanced: subpages']);
    // Outline from the headings, with anchors the headings carry.
    expect(links(byLabel(r.doc, 'On this page'))).toEqual([
      { text: 'Install', href: '#install' },
      { text: 'On Linux', href: '#on-linux' },
    ]);
    expect(byTag(mainOf(r.doc), 'h2').map((h) => attrOf(h, 'id'))).toEqual(['install']);
    // Previous/next.
    expect(links(byLabel(r.doc, 'Previous and next'))).toEqual([{ text: 'Advanced →', href: `/sites/${org}/acme-docs/advanced` }]);
  });

  it('serves nested pages at their paths with breadcrumbs, the branch open in the sidebar', async () => {
    const r = await get(s, `${published}/advanced/deep-dive`);
    expect(r.status).toBe(200);
    expect(h1(r.doc)).toBe('Deep Dive');
    // Breadcrumbs: the space, then each ancestor, linked.
    expect(links(byLabel(r.doc, 'Breadcrumbs'))).toEqual([
      { text: 'Guides', href: published.replace(/^https?:\/\/[^/]+/, '') },
      { text: 'Advanced', href: `${published.replace(/^https?:\/\/[^/]+/, '')}/advanced` },
    ]);
    expect(links(byLabel(r.doc, 'Pages')).map((l) => l.text)).toEqual(['Getting Started', 'Advanced', 'Deep Dive']);
    // The current branch is open.
    expect(attrOf(byTag(byLabel(r.doc, 'Pages'), 'button')[0], 'aria-expanded')).toBe('true');
    expect(links(byLabel(r.doc, 'Previous and next')).map((l) => l.text)).toEqual(['← Advanced']);
    // A hidden page answers at its address, unlisted.
    const hidden = await get(s, `${published}/hidden-page`);
    expect(hidden.status).toBe(200);
    expect(h1(hidden.doc)).toBe('Hidden Page');
  });

  it('shows a section with its site spaces as a switcher', async () => {
    const r = await get(s, `${published}/api`);
    expect(r.status).toBe(200);
    expect(textOf(mainOf(r.doc))).toContain('The v2 reference.');
    const variants = byLabel(r.doc, 'Variants');
    expect(links(variants)).toEqual([
      { text: 'API v2', href: `/sites/${org}/acme-docs/api` },
      { text: 'API v1', href: `/sites/${org}/acme-docs/api/api-v1` },
    ]);
    const v1 = await get(s, `${published}/api/api-v1/reference`);
    expect(textOf(mainOf(v1.doc))).toContain('The v1 reference.');
    expect(attrOf(byTag(byLabel(v1.doc, 'Variants'), 'a')[1], 'aria-current')).toBe('page');
  });

  it('answers unknown paths with a 404 page in the site look', async () => {
    const r = await get(s, `${published}/no/such/page`);
    expect(r.status).toBe(404);
    expect(h1(r.doc)).toBe('Page not found');
    expect(textOf(byClass(r.doc, 'brand')[0])).toContain('Acme Docs');
    expect(links(byLabel(r.doc, 'Pages')).map((l) => l.text)).toContain('Getting Started');
    expect((await get(s, `/sites/${org}/no-such-site`)).status).toBe(404);
    expect((await get(s, `/sites/nobody/acme-docs`)).status).toBe(404);
  });

  it('bad paths: dot segments, encoded slashes, NUL, over-long segments are 404s, never a 500', async () => {
    for (const p of [
      '/..',
      '/%2e%2e/%2e%2e/v1/orgs',
      '/a%2Fb',
      '/a%00',
      `/${'x'.repeat(5000)}`,
      '/%E0%A4%A',
      '/%2e%2e',
    ] /* fetch itself normalizes literal dot segments */) {
      const r = await get(s, `/sites/${org}/acme-docs${p}`);
      expect(r.status, p).toBe(404);
      expect(r.text).not.toContain('"error"');
    }
  });

  it('a moved or renamed page: its old address redirects (301) to where it is now', async () => {
    const deep = guides.pages['Deep Dive'].id;
    await edit(s, guides.space.id, [{ operation: 'update_page', page: deep, slug: 'deeper-dive', into: null }]);
    const r = await get(s, `${published}/advanced/deep-dive`);
    expect(r.status).toBe(301);
    expect(r.headers.get('location')).toBe(`/sites/${org}/acme-docs/deeper-dive`);
    expect(h1((await get(s, `${published}/deeper-dive`)).doc)).toBe('Deep Dive');
    // Content is read as it is now: no build, no restart.
    await edit(s, guides.space.id, [{ operation: 'update_page', page: guides.pages.Advanced.id, document: { markdown: 'Rewritten now.' } }]);
    expect(textOf(mainOf((await get(s, `${published}/advanced`)).doc))).toContain('Rewritten now.');
  });

  it('rendered bodies are cached by what decides them: a second request renders nothing, a change renders again', async () => {
    const { renderStats } = await import('../../src/published/render/cache.js');
    await get(s, `${published}/advanced`);
    const before = renderStats.rendered;
    expect(textOf(mainOf((await get(s, `${published}/advanced`)).doc))).toContain('Rewritten now.');
    expect(renderStats.rendered).toBe(before);
    await edit(s, guides.space.id, [{ operation: 'update_page', page: guides.pages.Advanced.id, document: { markdown: 'Changed again.' } }]);
    expect(textOf(mainOf((await get(s, `${published}/advanced`)).doc))).toContain('Changed again.');
    expect(renderStats.rendered).toBe(before + 1);
  });

  it('a deleted space never renders: its section leaves the navigation, its addresses 404; HEAD answers without a body', async () => {
    const extra = await spaceWith(s, org, 'Soon Gone', [page('x', 'Ephemeral', 'Here for now.')]);
    const o = `/v1/orgs/${org}/sites/${site.id}`;
    await call('POST', `${o}/sections`, { spaceId: extra.space.id, title: 'Gone' });
    expect(h1((await get(s, `${published}/gone`)).doc)).toBe('Ephemeral');
    await call('DELETE', `/v1/spaces/${extra.space.id}`);
    expect((await get(s, `${published}/gone`)).status).toBe(404);
    expect(links(byLabel((await get(s, published)).doc, 'Sections')).map((l) => l.text)).toEqual(['Guides', 'API']);
    const head = await fetch(published, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
    expect((await fetch(published, { method: 'POST' })).status).toBe(405);
  });

  it('a site that is not published: 404', async () => {
    const other = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Draft Site', spaces: [guides.space.id] });
    expect((await get(s, `/sites/${org}/draft-site`)).status).toBe(404);
    await call('POST', `/v1/orgs/${org}/sites/${other.id}/publish`);
    expect((await get(s, `/sites/${org}/draft-site`)).status).toBe(200);
    await call('POST', `/v1/orgs/${org}/sites/${other.id}/unpublish`);
    expect((await get(s, `/sites/${org}/draft-site`)).status).toBe(404);
  });
});
