import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, byLabel, edit, get, h1, links, page, spaceWith } from './fixture.js';

// The page actions of a content page (customization `pageActions.items`): plain links, in the
// customization's order, each leading somewhere that answers.

let s: TestServer;
let call: ReturnType<typeof api>;
let o: string;
let base: string;
let betaApp: string;
let spaceId: string;

beforeAll(async () => {
  s = await startServer();
  call = api(s);
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  const a = await spaceWith(s, org, 'Handbook', [page('a', 'Alpha', 'Alpha text.'), page('b', 'Beta', 'Beta **text**.')]);
  spaceId = a.space.id;
  betaApp = new URL(a.pages.Beta.urls.app).pathname;
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Actions Site', spaces: [a.space.id] });
  o = `/v1/orgs/${org}/sites/${site.id}`;
  base = (await call('POST', `${o}/publish`)).urls.published;
}, 60_000);
afterAll(() => s?.stop());

const customize = async (change: (c: any) => void) => {
  const c = await call('GET', `${o}/customization`);
  change(c);
  await call('PUT', `${o}/customization`, c);
};
const actions = async (path = '/beta') => {
  const doc = (await get(s, base + path)).doc;
  const nav = byLabel(doc, 'Page actions');
  return nav ? links(nav) : [];
};
const path = (u: string) => new URL(u).pathname;

describe('page actions', () => {
  it('by default: View as Markdown, then the MCP server (external AI is not drawn); each answers 200', async () => {
    const got = await actions();
    expect(got.map((l) => l.text)).toEqual(['View as Markdown', 'MCP server']);
    expect(got[0]!.href).toBe(`${path(base)}/beta.md`);
    expect(got[1]!.href).toBe(`${path(base)}/mcp`);

    const md = await get(s, got[0]!.href);
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(md.text).toMatch(/^# Beta\n/);
    expect(md.text).toContain('Beta **text**.');

    // A browser opening the MCP link gets a page saying what the address is for; an MCP client
    // posting to the same address gets the site's MCP server.
    const page = await get(s, got[1]!.href);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`${base}/mcp`);
    const mcp = await fetch(s.url + got[1]!.href, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(200);
    expect(await mcp.text()).toContain('read_page');
  });

  it('follows the order of items; an empty list draws none', async () => {
    await customize((c) => (c.pageActions = { items: ['mcp', 'markdown'] }));
    expect((await actions()).map((l) => l.text)).toEqual(['MCP server', 'View as Markdown']);
    await customize((c) => (c.pageActions = { items: [] }));
    expect(await actions()).toEqual([]);
    expect(await actions('')).toEqual([]);
  });

  it('git: "Edit in the app" (the page\'s urls.app) only while the git edit link is on; pdf and external-ai are not drawn', async () => {
    await customize((c) => ((c.pageActions = { items: ['git', 'pdf', 'external-ai', 'markdown'] }), (c.git = { showEditLink: false })));
    expect((await actions()).map((l) => l.text)).toEqual(['View as Markdown']);
    await customize((c) => (c.git = { showEditLink: true }));
    const got = await actions();
    expect(got.map((l) => l.text)).toEqual(['Edit in the app', 'View as Markdown']);
    expect(got[0]!.href).toBe(betaApp);
    // The app asks who is there; a signed-in member sees the page's view.
    expect((await get(s, got[0]!.href)).status).toBe(401);
    const signIn = await fetch(`${s.url}/o/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: s.url },
      body: new URLSearchParams({ token: s.token, next: '/o' }),
    });
    const view = await get(s, got[0]!.href, signIn.headers.getSetCookie()[0]!.split(';')[0]!);
    expect(view.status).toBe(200);
    expect(view.text).toContain('Beta');
  });

  it('`<site>/mcp` is the MCP explainer only while no page has that path', async () => {
    expect(h1((await get(s, `${base}/mcp`)).doc)).toBe('MCP server');
    await edit(s, spaceId, [page('m', 'Mcp', 'A page called mcp.')]);
    const r = await get(s, `${base}/mcp`);
    expect(r.status).toBe(200);
    expect(h1(r.doc)).toBe('Mcp');
  });
});
