import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, toolText } from '../helpers/mcp.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { get, page, spaceWith } from '../published/fixture.js';

// Site redirects over HTTP (docs/manual/sites.md#redirects): every answer checked against both
// specs by s.api; the rules (normalised sources, loops and chains refused, destinations); the
// published site honouring them before its 404.

let s: TestServer;
let org: string;
let siteId: string;
let base: string;
let spaceId: string;
let ssId: string;
let pages: Record<string, any>;
beforeAll(async () => {
  s = await startServer();
  const o = await s.api('GET', '/v1/orgs');
  if (!o.body?.items) throw new Error(JSON.stringify(o));
  org = o.body.items[0].id;
  const sp = await spaceWith(s, org, 'Guide', [page('a', 'Setup', '# Setup\n\nInstall it.\n'), page('b', 'Usage', '# Usage\n\nUse it.\n')]);
  spaceId = sp.space.id;
  pages = sp.pages;
  const site = await ok('POST', '/sites', { title: 'Redirects', spaces: [spaceId] }, 201);
  siteId = site.id;
  ssId = (await ok('GET', `/sites/${siteId}/site-spaces`)).items[0].id;
  const pub = await ok('POST', `/sites/${siteId}/publish`);
  base = pub.urls.published;
});
afterAll(() => s.stop());

async function ok(method: string, path: string, body?: unknown, status = 200) {
  const r = await s.api(method, `/v1/orgs/${org}${path}`, body === undefined ? {} : { body });
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(status);
  return r.body;
}
async function fails(method: string, path: string, body: unknown, status: number, message: string | RegExp, token?: string) {
  const r = await s.api(method, `/v1/orgs/${org}${path}`, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) });
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  if (typeof message === 'string') expect(r.body.error.message).toBe(message);
  else expect(r.body.error.message).toMatch(message);
}
const R = () => `/sites/${siteId}/redirects`;
// Counted by a raw fetch: the site may hold external redirects meanwhile (0.202.0 objects).
const raw = async (q: string) =>
  (await (await fetch(`${s.url}/v1/orgs/${org}${R()}${q}`, { headers: { authorization: `Bearer ${s.token}` } })).json()).count as number;
const count = async () => (await raw('')) + (await raw('?draft=true'));
const toPage = (title: string) => ({ kind: 'site-page', siteSpaceId: ssId, pageId: pages[title].id });

describe('site redirects: create, list, get by source, update, delete', () => {
  it('creates (201, Location, defaults), lists, resolves by source, updates, deletes (205 then 204)', async () => {
    const r = await s.api('POST', `/v1/orgs/${org}${R()}`, { body: { source: '/old-setup', destination: toPage('Setup') } });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`${s.url}/v1/orgs/${org}${R()}/${r.body.id}`);
    expect(r.body).toMatchObject({
      object: 'site-redirect',
      source: '/old-setup',
      draft: false,
      captureWildcard: false,
      permanent: false,
      destination: toPage('Setup'),
    });
    expect((await ok('GET', R())).items.map((x: any) => x.id)).toContain(r.body.id);
    const got = await ok('GET', `/sites/${siteId}/redirect?source=/old-setup`);
    expect(got).toEqual({ redirect: r.body, target: `${base}/setup` });
    const up = await ok('PATCH', `${R()}/${r.body.id}`, { permanent: true, destination: toPage('Usage') });
    expect(up).toMatchObject({ permanent: true, destination: toPage('Usage'), updatedAt: expect.any(String) });
    expect((await ok('GET', `/sites/${siteId}/redirect?source=/old-setup`)).target).toBe(`${base}/usage`);
    expect((await s.api('DELETE', `/v1/orgs/${org}${R()}/${r.body.id}`)).status).toBe(205);
    expect((await s.api('DELETE', `/v1/orgs/${org}${R()}/${r.body.id}`)).status).toBe(204);
    await fails('GET', `/sites/${siteId}/redirect?source=/old-setup`, undefined, 404, `no redirect from /old-setup in site ${siteId}`);
  });

  it('takes a destination by page path (as .gitbook.yaml names it) and an external URL', async () => {
    const a = await ok('POST', R(), { source: '/p1', destination: { kind: 'path', spaceId, path: 'usage.md' } }, 201);
    expect(a.destination).toEqual(toPage('Usage'));
    const b = await ok('POST', R(), { source: '/p2', destination: { kind: 'path', spaceId, path: 'README.md' } }, 201);
    expect(b.destination).toEqual({ kind: 'site-space', siteSpaceId: ssId });
    // An external destination is a 0.202.0 object (0.146.0 has no `external` kind): checked by raw fetch.
    const res = await fetch(`${s.url}/v1/orgs/${org}${R()}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ source: '/ext', destination: { kind: 'external', url: 'https://example.com/docs' } }),
    });
    expect(res.status).toBe(201);
    const ext = await res.json();
    expect(ext.destination).toEqual({ kind: 'external', url: 'https://example.com/docs' });
    await ok('DELETE', `${R()}/${ext.id}`, undefined, 205);
    for (const id of [a.id, b.id]) await ok('DELETE', `${R()}/${id}`, undefined, 205);
  });

  it('lists with search, draft filter and order; paginates', async () => {
    const made = [];
    for (const src of ['/l-b', '/l-a', '/l-c']) made.push(await ok('POST', R(), { source: src, destination: toPage('Setup') }, 201));
    const d = await ok('POST', R(), { source: '/l-d', destination: toPage('Setup'), draft: true }, 201);
    const bySource = await ok('GET', `${R()}?search=l-&orderBy=source`);
    expect(bySource.items.map((x: any) => x.source)).toEqual(['/l-a', '/l-b', '/l-c']);
    expect((await ok('GET', `${R()}?search=l-&draft=true`)).items.map((x: any) => x.source)).toEqual(['/l-d']);
    const first = await ok('GET', `${R()}?search=l-&orderBy=source&limit=2`);
    expect(first.items).toHaveLength(2);
    const second = await ok('GET', `${R()}?search=l-&orderBy=source&limit=2&page=${first.next.page}`);
    expect(second.items.map((x: any) => x.source)).toEqual(['/l-c']);
    for (const r of [...made, d]) await ok('DELETE', `${R()}/${r.id}`, undefined, 205);
  });
});

describe('site redirects: the rules', () => {
  it('normalises sources: %-escapes of unreserved characters decoded, others upper-cased', async () => {
    const r = await ok('POST', R(), { source: '/n%61me/%c3%a9t%C3%A9', destination: toPage('Setup') }, 201);
    expect(r.source).toBe('/name/%C3%A9t%C3%A9');
    // The same source again, written differently: refused.
    await fails(
      'POST',
      R(),
      { source: '/%6Eame/%c3%a9t%c3%a9', destination: toPage('Setup') },
      400,
      'source: a redirect from /name/%C3%A9t%C3%A9 already exists in this site',
    );
    await ok('DELETE', `${R()}/${r.id}`, undefined, 205);
  });

  it('refuses bad sources and destinations, naming the field, changing nothing', async () => {
    const before = await count();
    await fails('POST', R(), { source: '/a/../b', destination: toPage('Setup') }, 400, /^source: '\.' and '\.\.' segments are not allowed/);
    await fails('POST', R(), { source: 'no-slash', destination: toPage('Setup') }, 400, /source/);
    await fails(
      'POST',
      R(),
      { source: '/x', destination: { kind: 'site-space', siteSpaceId: 'nope' } },
      400,
      `destination.siteSpaceId: no site space nope in site ${siteId}`,
    );
    await fails(
      'POST',
      R(),
      { source: '/x', destination: { kind: 'site-section', siteSectionId: 'nope' } },
      400,
      `destination.siteSectionId: no section nope in site ${siteId}`,
    );
    await fails(
      'POST',
      R(),
      { source: '/x', destination: { kind: 'path', spaceId, path: 'missing.md' } },
      400,
      `destination.path: no page at "missing.md" in space ${spaceId}`,
    );
    await fails(
      'POST',
      R(),
      { source: '/x', destination: { kind: 'path', spaceId: 'other', path: 'a' } },
      400,
      `destination.spaceId: space other is not in site ${siteId}`,
    );
    for (const url of ['javascript:alert(1)', 'data:text/html,hi', 'ftp://example.com/x', 'https://user:pw@example.com/']) {
      const res = await fetch(`${s.url}/v1/orgs/${org}${R()}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ source: '/x', destination: { kind: 'external', url } }),
      });
      expect(res.status, url).toBe(400);
      expect((await res.json()).error.message, url).toMatch(/destination\.url/);
    }
    expect(await count()).toBe(before);
  });

  it('refuses a loop (A → B → A) and a chain longer than 10, at creation and at update', async () => {
    const before = await count();
    const site = (p: string) => ({ kind: 'external', url: `${base}${p}` });
    const send = (method: string, path: string, body: unknown) =>
      fetch(`${s.url}/v1/orgs/${org}${path}`, {
        method,
        headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const a = await (await send('POST', R(), { source: '/loop-a', destination: site('/loop-b') })).json();
    const res = await send('POST', R(), { source: '/loop-b', destination: site('/loop-a') });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toBe('destination: makes a redirect loop: /loop-b → /loop-a → /loop-b');
    // A chain of 10 is accepted; the 11th link is refused.
    const made = [a];
    for (let i = 0; i < 9; i++) made.push(await (await send('POST', R(), { source: `/c${i}`, destination: site(i === 8 ? '/end' : `/c${i + 1}`) })).json());
    const long = await send('POST', R(), { source: '/c-start', destination: site('/c0') });
    expect(long.status).toBe(200 + 201 - 200);
    made.push(await long.json());
    const tooLong = await send('POST', R(), { source: '/c-before', destination: site('/c-start') });
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).error.message).toMatch(/^destination: makes a chain of more than 10 redirects: \/c-before → \/c-start → \/c0/);
    // An update that closes a loop is refused too, and changes nothing.
    const up = await send('PATCH', `${R()}/${made[9].id}`, { destination: site('/c-start') });
    expect(up.status).toBe(400);
    expect((await up.json()).error.message).toMatch(/^destination: makes a redirect loop/);
    expect(await count()).toBe(before + made.length);
    for (const r of made) await ok('DELETE', `${R()}/${r.id}`, undefined, 205);
  });

  it('bulk upsert: created, updated, deleted, draft published, errors per item', async () => {
    const body = {
      redirects: [
        { source: '/bulk-1', destination: toPage('Setup') },
        { source: '/bulk-2', intent: 'draft', destination: toPage('Usage') },
        { source: '/bulk-3', destination: { kind: 'path', spaceId, path: 'nope.md' } },
      ],
    };
    const r1 = await ok('PUT', R(), body);
    expect(r1.results.map((x: any) => [x.status, x.source, x.draft])).toEqual([
      ['created', '/bulk-1', false],
      ['created', '/bulk-2', true],
      ['error', '/bulk-3', false],
    ]);
    expect(r1.results[2].error).toBe(`redirects[2].destination.path: no page at "nope.md" in space ${spaceId}`);
    const r2 = await ok('PUT', R(), {
      redirects: [
        { source: '/bulk-1', destination: toPage('Usage'), permanent: true },
        { source: '/bulk-2', intent: 'publish' },
        { source: '/bulk-1', destination: null },
      ],
    });
    expect(r2.results.map((x: any) => [x.status, x.source, x.draft])).toEqual([
      ['updated', '/bulk-1', false],
      ['published', '/bulk-2', false],
      ['deleted', '/bulk-1', false],
    ]);
    const live = (await ok('GET', `${R()}?search=bulk`)).items;
    expect(live.map((x: any) => [x.source, x.draft])).toEqual([['/bulk-2', false]]);
    expect((await ok('GET', `${R()}?search=bulk&draft=true`)).items).toEqual([]);
    await ok('DELETE', `${R()}/${live[0].id}`, undefined, 205);
  });

  it('reading needs a role in the organization, changing needs admin', async () => {
    const editor = await addUser(s.ctx, org, 'edit');
    const reader = await addUser(s.ctx, org, 'read');
    const r = await ok('POST', R(), { source: '/perm', destination: toPage('Setup') }, 201);
    expect((await s.api('GET', `/v1/orgs/${org}${R()}`, { token: reader.token })).status).toBe(200);
    await fails('POST', R(), { source: '/perm2', destination: toPage('Setup') }, 403, /admin/, editor.token);
    await fails('PATCH', `${R()}/${r.id}`, { permanent: true }, 403, /admin/, editor.token);
    await fails('DELETE', `${R()}/${r.id}`, undefined, 403, /admin/, editor.token);
    await ok('DELETE', `${R()}/${r.id}`, undefined, 205);
  });
});

describe('site redirects: the published site', () => {
  it('answers 302 (or 301 when permanent) before its 404, keeping the query; a page wins over a redirect', async () => {
    const a = await ok('POST', R(), { source: '/moved', destination: toPage('Usage') }, 201);
    const b = await ok('POST', R(), { source: '/gone-for-good', destination: toPage('Setup'), permanent: true }, 201);
    const c = await ok('POST', R(), { source: '/setup', destination: toPage('Usage') }, 201);
    const path = new URL(base).pathname;
    let g = await get(s, `${path}/moved?utm=1&x=a%20b`);
    expect(g.status).toBe(302);
    expect(g.headers.get('location')).toBe(`${base}/usage?utm=1&x=a%20b`);
    g = await get(s, `${path}/gone-for-good`);
    expect(g.status).toBe(301);
    expect(g.headers.get('location')).toBe(`${base}/setup`);
    // A page at the source: the page answers.
    expect((await get(s, `${path}/setup`)).status).toBe(200);
    expect((await get(s, `${path}/nothing-here`)).status).toBe(404);
    // Draft redirects are not served.
    const d = await ok('POST', R(), { source: '/drafted', destination: toPage('Usage'), draft: true }, 201);
    expect((await get(s, `${path}/drafted`)).status).toBe(404);
    for (const r of [a, b, c, d]) await ok('DELETE', `${R()}/${r.id}`, undefined, 205);
    expect((await get(s, `${path}/moved`)).status).toBe(404);
  });
});

describe('site redirects: MCP', () => {
  it('reaches the operations as tools', async () => {
    const mcp = await connectMcp(s.url, s.token);
    try {
      const made = await mcp.callTool({
        name: 'createSiteRedirect',
        arguments: { organizationId: org, siteId, source: '/via-mcp', destination: { kind: 'site-space', siteSpaceId: ssId } },
      });
      expect(toolText(made)).toContain('/via-mcp');
      const got = await mcp.callTool({ name: 'getSiteRedirectBySource', arguments: { organizationId: org, siteId, source: '/via-mcp' } });
      expect(toolText(got)).toContain(base);
      await ok('DELETE', `${R()}/${JSON.parse(toolText(made)).id}`, undefined, 205);
    } finally {
      await mcp.close();
    }
  });
});
