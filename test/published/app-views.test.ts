import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { buildWorld, type World } from '../helpers/world.js';
import { attrOf, byClass, byTag, edit, get, h1, mainOf, textOf } from './fixture.js';

// Every `urls.app` the API hands out leads to a read-only HTML view for a signed-in member (a
// login form taking a token, an HttpOnly SameSite=Strict cookie), never a JSON 404.

let s: TestServer;
let w: World;
let session: string;

async function login(token: string): Promise<Response> {
  return fetch(`${s.url}/o/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: s.url },
    body: new URLSearchParams({ token, next: '/o' }),
  });
}

beforeAll(async () => {
  s = await startServer();
  w = await buildWorld(s);
  session = (await login(s.token)).headers.getSetCookie()[0]!.split(';')[0]!;
}, 120_000);
afterAll(() => s?.stop());

const appUrlsOf = () => appUrls();

/** Every `urls.app` of the world's resources, as the API gives them. */
async function appUrls(): Promise<Record<string, string>> {
  const { ids, owner } = w;
  const o = `/v1/orgs/${ids.organizationId}`;
  const cr = await owner('GET', `/v1/spaces/${ids.spaceId}/change-requests/${ids.changeRequestId}`);
  const page = await owner('GET', `/v1/spaces/${ids.spaceId}/content/page/${ids.pageId}`);
  return {
    organization: (await owner('GET', o)).urls.app,
    space: (await owner('GET', `/v1/spaces/${ids.spaceId}`)).urls.app,
    page: page.urls.app,
    collection: (await owner('GET', `/v1/collections/${ids.collectionId}`)).urls.app,
    changeRequest: cr.urls.app,
    revision: (await owner('GET', `/v1/spaces/${ids.spaceId}/revisions/${ids.revisionId}`)).urls.app,
    site: (await owner('GET', `${o}/sites/${ids.siteId}`)).urls.app,
    openapi: (await owner('GET', `${o}/openapi/${ids.specSlug}`)).urls.app,
    integration: (await owner('GET', `/v1/integrations/${ids.integrationName}`)).urls.app,
  };
}

describe('urls.app views', () => {
  it('each urls.app answers 200 HTML for a signed-in member', async () => {
    const urls = await appUrls();
    for (const [kind, url] of Object.entries(urls)) {
      expect(url, kind).toMatch(new RegExp(`^${s.url}/(o|integrations)/`));
      const r = await get(s, url, session);
      expect([kind, r.status, r.headers.get('content-type')]).toEqual([kind, 200, 'text/html; charset=utf-8']);
    }
  });

  it('without a session: the login form (401); a valid token signs in with an HttpOnly, SameSite=Strict cookie; a bad one does not', async () => {
    const url = (await appUrls()).space;
    const anon = await get(s, url);
    expect(anon.status).toBe(401);
    const form = byTag(anon.doc, 'form')[0];
    expect(form.attrs).toEqual(
      expect.arrayContaining([
        { name: 'method', value: 'post' },
        { name: 'action', value: '/o/login' },
      ]),
    );
    const ok = await login(s.token);
    expect(ok.status).toBe(303);
    expect(ok.headers.get('set-cookie')).toMatch(/^docs_session=.*; Path=\/; HttpOnly; SameSite=Strict$/);
    const bad = await login('gb_api_nope');
    expect(bad.status).toBe(401);
    expect(bad.headers.get('set-cookie')).toBeNull();
    // After signing in, only app paths are followed (no open redirect).
    const evil = await fetch(`${s.url}/o/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: s.url },
      body: new URLSearchParams({ token: s.token, next: 'https://evil.example' }),
    });
    expect(evil.headers.get('location')).toBe('/o');
  });

  it('a space shows its page tree and rendered pages; a change request its status and per-page diff', async () => {
    const urls = await appUrls();
    const page = await get(s, urls.page, session);
    expect(h1(page.doc)).toBe('Intro');
    expect(textOf(mainOf(page.doc))).toContain('Install it.');
    expect(textOf(byTag(page.doc, 'aside')[0])).toContain('Setup');
    const cr = await get(s, urls.changeRequest, session);
    expect(textOf(mainOf(cr.doc))).toContain('Status: open');
    expect(byTag(mainOf(cr.doc), 'del').map(textOf).join('')).toContain('Install it. See');
    expect(byTag(mainOf(cr.doc), 'ins').map(textOf).join('')).toContain('+ Install it again.');
    const spec = await get(s, urls.openapi, session);
    expect(textOf(mainOf(spec.doc))).toContain('GET /ping');
  });

  it('a page preview warns of broken links (pages of the space lead to their view); diffs are colored per line and wrap; a cluster is tables, not JSON', async () => {
    const { ids, owner } = w;
    const space = await owner('GET', `/v1/spaces/${ids.spaceId}`);
    await edit(s, ids.spaceId, [
      { operation: 'insert_page', ref: 'broken', title: 'Broken Links', document: { markdown: 'See [setup](./setup.md) and [gone](./gone.md).' } },
    ]);
    const preview = await get(s, `${space.urls.app}/broken-links`, session);
    expect(preview.status).toBe(200);
    const main = byTag(mainOf(preview.doc), 'article')[0];
    expect(byClass(main, 'broken-link').map((n) => [textOf(n), attrOf(n, 'title')])).toEqual([['gone', 'Broken link']]);
    expect(byTag(main, 'a').map((a) => [textOf(a), attrOf(a, 'href')])).toEqual([['setup', `${new URL(space.urls.app).pathname}/setup`]]);
    const cr = await get(s, (await appUrlsOf()).changeRequest, session);
    const diff = byClass(mainOf(cr.doc), 'diff')[0];
    expect(byTag(diff, 'del').length + byTag(diff, 'ins').length).toBeGreaterThanOrEqual(2);
    expect(textOf(byTag(cr.doc, 'style')[0])).toMatch(/pre\.diff\{white-space:pre-wrap/);
    const cluster = await get(s, `${s.url}/o/${ids.organizationId}/conversations/clusters/${ids.clusterId}`, session);
    expect(cluster.status).toBe(200);
    expect(byTag(mainOf(cluster.doc), 'pre')).toEqual([]);
    expect(byTag(mainOf(cluster.doc), 'dl').length + byTag(mainOf(cluster.doc), 'table').length).toBeGreaterThan(0);
    expect(textOf(mainOf(cluster.doc))).not.toContain('":');
    expect(h1(cluster.doc)).toBe('Reset email never arrives');
    expect(byTag(mainOf(cluster.doc), 'td').map(textOf)).toContain('I cannot reset my password: the reset email never arrives.');
  });

  it('no view shows what the API would refuse the member', async () => {
    const { ids } = w;
    const outsider = await addUser(s.ctx);
    const theirSession = (await login(outsider.token)).headers.getSetCookie()[0]!.split(';')[0]!;
    const api = await s.api('GET', `/v1/spaces/${ids.spaceId}`, { token: outsider.token });
    const view = await get(s, (await appUrls()).space, theirSession);
    expect(view.status).toBe(api.status);
    expect(view.status).toBe(404);
    expect(view.text).not.toContain('World space');
    expect((await get(s, `${s.url}/o/${ids.organizationId}`, theirSession)).status).toBe(404);
    expect((await get(s, `${s.url}/o/${ids.organizationId}/nothing/here`, session)).status).toBe(404);
  });
});
