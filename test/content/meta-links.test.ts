import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { get } from '../published/fixture.js';

// Page meta links (docs/manual/content.md#meta-links): set by a batch's insert_page/update_page
// `metaLinks`, read by listSpacePageMetaLinks / listChangeRequestPageMetaLinks /
// listRevisionPageMetaLinks (every answer checked against both specs by s.api), rendered by the
// published page as <link rel="canonical"> and <link rel="alternate">.

let s: TestServer;
let org: string;
let space: string;
const sp = () => `/v1/spaces/${space}`;
const batch = (cr: string, changes: unknown[]) => s.api('POST', `${sp()}/change-requests/${cr}/content?compat=false`, { body: { changes } });
let setup: string;
let guide: string;
let cr: string;
let revision: string;

beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Docs' } })).body.id;
});
afterAll(() => s?.stop());

describe('meta links', () => {
  it('are set in a change request, read in it, then in the space and the merged revision', async () => {
    cr = (await s.api('POST', `${sp()}/change-requests`, { body: { subject: 'Pages' } })).body.id;
    const r = await batch(cr, [
      { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'The guide.' } },
      {
        operation: 'insert_page',
        ref: 'setup',
        title: 'Setup',
        document: { markdown: 'Run it.' },
        metaLinks: { canonical: { kind: 'url', url: 'https://docs.example.com/setup' }, alternates: [{ kind: 'page', page: 'guide' }] },
      },
    ]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const id = (ref: string) => {
      const c = r.body.changes.find((x: any) => x.ref === ref);
      return typeof c.page === 'string' ? c.page : c.page.id;
    };
    [guide, setup] = [id('guide'), id('setup')];
    const want = { canonical: { kind: 'url', url: 'https://docs.example.com/setup' }, alternates: [{ kind: 'page', page: guide }] };
    expect((await s.api('GET', `${sp()}/change-requests/${cr}/content/page/${setup}/meta-links`)).body).toEqual(want);
    // Not in the space until merged: the page is not there yet.
    expect((await s.api('GET', `${sp()}/content/page/${setup}/meta-links`)).status).toBe(404);
    revision = (await s.api('POST', `${sp()}/change-requests/${cr}/merge`)).body.revision;
    expect((await s.api('GET', `${sp()}/content/page/${setup}/meta-links`)).body).toEqual(want);
    expect((await s.api('GET', `${sp()}/revisions/${revision}/page/${setup}/meta-links`)).body).toEqual(want);
    // A page without any: {}.
    expect((await s.api('GET', `${sp()}/content/page/${guide}/meta-links`)).body).toEqual({});
  });

  it('are drawn in the published page head; null clears them (the older revision keeps its own)', async () => {
    const site = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Meta site', spaces: [space] } })).body;
    const published = (await s.api('POST', `/v1/orgs/${org}/sites/${site.id}/publish`)).body.urls.published;
    const html = (await get(s, `${published}/setup`)).text;
    expect(html).toContain('<link rel="canonical" href="https://docs.example.com/setup">');
    expect(html).toMatch(/<link rel="alternate" href="[^"]*\/guide">/);
    expect((await get(s, `${published}/guide`)).text).not.toContain('rel="canonical"');

    const clear = (await s.api('POST', `${sp()}/change-requests`, { body: { subject: 'Clear' } })).body.id;
    expect((await batch(clear, [{ operation: 'update_page', page: setup, metaLinks: null }])).status).toBe(200);
    await s.api('POST', `${sp()}/change-requests/${clear}/merge`);
    expect((await s.api('GET', `${sp()}/content/page/${setup}/meta-links`)).body).toEqual({});
    expect((await s.api('GET', `${sp()}/revisions/${revision}/page/${setup}/meta-links`)).body.canonical).toBeTruthy();
    expect((await get(s, `${published}/setup`)).text).not.toContain('rel="canonical"');
  });

  it('bad meta links are a 400 naming the field, and change nothing', async () => {
    const bad = (await s.api('POST', `${sp()}/change-requests`, { body: { subject: 'Bad' } })).body.id;
    for (const [metaLinks, field] of [
      [{ canonical: { kind: 'url', url: 'javascript:alert(1)' } }, 'metaLinks.canonical.url'],
      [{ canonical: { kind: 'url', url: 'mailto:a@b.c' } }, 'metaLinks.canonical.url'],
      [{ alternates: [{ kind: 'page', page: 'nope' }] }, 'metaLinks.alternates[0].page'],
      [{ alternates: 'x' }, 'metaLinks.alternates'],
      [{ canonical: { kind: 'file', file: 'x' } }, 'metaLinks.canonical'],
      [{ rel: 'me' }, 'metaLinks.rel'],
    ] as const) {
      const r = await batch(bad, [{ operation: 'update_page', page: setup, metaLinks }]);
      expect([r.status, r.body.error.message], JSON.stringify(metaLinks)).toEqual([400, expect.stringContaining(`changes[0].${field}`)]);
    }
    expect((await s.api('GET', `${sp()}/change-requests/${bad}/content/page/${setup}/meta-links`)).body).toEqual({});
    expect((await s.api('GET', `${sp()}/content/page/nope/meta-links`)).status).toBe(404);
  });

  it('read with the space: a stranger is refused; the CLI reads all three forms', async () => {
    const stranger = await addUser(s.ctx);
    expect((await s.api('GET', `${sp()}/content/page/${setup}/meta-links`, { token: stranger.token })).status).toBeGreaterThanOrEqual(403);
    const env = { DOCS_API_URL: s.url, DOCS_TOKEN: s.token };
    const out = await docs(['pages', 'meta-links', space, setup, '--revision', revision, '--json'], env);
    expect([out.status, out.json.canonical]).toEqual([0, { kind: 'url', url: 'https://docs.example.com/setup' }]);
    expect((await docs(['pages', 'meta-links', space, setup, '--json'], env)).json).toEqual({});
    expect((await docs(['pages', 'meta-links', space, setup, '--change-request', cr, '--json'], env)).json.canonical).toBeTruthy();
  });
});
