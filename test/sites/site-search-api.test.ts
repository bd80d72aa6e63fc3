import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, get, page, spaceWith } from '../published/fixture.js';

// searchSiteContent, prewarmSiteSearch and getSitePublishingPreviewById
// (docs/manual/sites.md#site-search-and-preview), through HTTP: every answer checked against
// both specs by `s.api`. The search is the published site's: the same pages its search box finds.

let s: TestServer;
let call: ReturnType<typeof api>;
let org: string;
let guides: Awaited<ReturnType<typeof spaceWith>>;
let billing: Awaited<ReturnType<typeof spaceWith>>;
let site: any;
let o: string;
let structure: any[];

beforeAll(async () => {
  s = await startServer();
  call = api(s);
  org = (await call('GET', '/v1/orgs')).items[0].id;
  guides = await spaceWith(s, org, 'Guides', [
    page('start', 'Getting Started', 'Install the refund tool.\n\n## Refunds\n\nAsk for a refund within 30 days.'),
    page('secret', 'Hidden Refunds', 'A hidden refund page.', { hidden: true }),
    page('pro', 'Pro Refunds', 'Refund rules for pro.', { condition: 'visitor.claims.unsigned.plan === "pro"' }),
  ]);
  billing = await spaceWith(s, org, 'Billing', [page('inv', 'Invoices', 'Invoices and refund credits.')]);
  site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Search Docs' });
  o = `/v1/orgs/${org}/sites/${site.id}`;
  await call('POST', `${o}/sections`, { spaceId: guides.space.id, title: 'Guides' });
  await call('POST', `${o}/sections`, { spaceId: billing.space.id, title: 'Billing' });
  site = await call('POST', `${o}/publish`);
  structure = (await call('GET', `${o}/structure`)).structure;
}, 90_000);
afterAll(() => s?.stop());

const search = (body: object, token?: string, qs = '') => s.api('POST', `${o}/search${qs}`, { body, ...(token ? { token } : {}) });
const titles = (items: any[]) => items.flatMap((sp: any) => sp.pages.map((p: any) => `${sp.title}/${p.title}`)).sort();

describe('searchSiteContent', () => {
  it("finds what the published site's search finds: listed pages the audience sees, grouped by space", async () => {
    const r = await search({ query: 'refund', scope: { mode: 'all' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(titles(r.body.items)).toEqual(['Billing/Invoices', 'Guides/Getting Started']);
    const g = r.body.items.find((i: any) => i.id === guides.space.id);
    expect(g).toMatchObject({ type: 'space', title: 'Guides' });
    expect(g.pages[0].sections.length).toBeGreaterThan(0);
    expect(g.pages[0].urls.app).toContain(`/s/${guides.space.id}/`);
    // The published site's own search answers the same pages.
    const html = await get(s, `${site.urls.published}/~/search?q=refund`);
    expect(html.text).toContain('Getting Started');
    expect(html.text).toContain('Invoices');
    expect(html.text).not.toContain('Hidden Refunds');
    expect(html.text).not.toContain('Pro Refunds');
  });

  it('scopes: specific site spaces, the defaults of each section from a current one, and the deprecated modes', async () => {
    const billingSs = structure[1].siteSpaces[0].id;
    const guidesSs = structure[0].siteSpaces[0].id;
    expect(titles((await search({ query: 'refund', scope: { mode: 'specific', siteSpaceIds: [billingSs] } })).body.items)).toEqual(['Billing/Invoices']);
    expect(titles((await search({ query: 'refund', siteSpaceIds: [billingSs] })).body.items)).toEqual(['Billing/Invoices']);
    expect(titles((await search({ query: 'refund', mode: 'all' })).body.items)).toHaveLength(2);
    expect(titles((await search({ query: 'refund', mode: 'current', siteSpaceId: guidesSs })).body.items)).toHaveLength(2);
    expect(
      titles((await search({ query: 'refund', scope: { mode: 'default', currentSiteSpace: guidesSs, restrictTo: 'currentSiteSpace' } })).body.items),
    ).toEqual(['Guides/Getting Started']);
    expect(
      titles((await search({ query: 'refund', scope: { mode: 'default', currentSiteSpace: guidesSs, restrictTo: 'otherSiteSpaces' } })).body.items),
    ).toEqual(['Billing/Invoices']);
    const paged = await search({ query: 'refund', scope: { mode: 'all' } }, undefined, '?limit=1');
    expect(paged.body.items).toHaveLength(1);
    expect(paged.body.next).toBeDefined();
  });

  it('bad input is a 400 naming the field; a site space of another site too', async () => {
    expect((await search({ query: '   ', scope: { mode: 'all' } })).status).toBe(400);
    expect((await search({ query: 'refund' })).status).toBe(400);
    expect((await search({ query: 'x'.repeat(513), scope: { mode: 'all' } })).status).toBe(400);
    const other = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Other', spaces: [guides.space.id] });
    const otherSs = (await call('GET', `/v1/orgs/${org}/sites/${other.id}/site-spaces`)).items[0].id;
    const r = await search({ query: 'refund', scope: { mode: 'specific', siteSpaceIds: [otherSs] } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain(`scope.siteSpaceIds.0: ${otherSs} is not a site space of site ${site.id}`);
  });

  it('only what the caller may read: a member without access to a space finds nothing in it; non-members 404', async () => {
    const member = await addUser(s.ctx, org, 'read');
    await call('PATCH', `/v1/spaces/${billing.space.id}`, { defaultLevel: null });
    try {
      const seen = await search({ query: 'refund', scope: { mode: 'all' } }, member.token);
      expect(seen.status).toBe(200);
      expect(titles(seen.body.items)).toEqual(['Guides/Getting Started']);
    } finally {
      await call('PATCH', `/v1/spaces/${billing.space.id}`, { defaultLevel: 'inherit' });
    }
    const outsider = await addUser(s.ctx);
    expect((await search({ query: 'refund', scope: { mode: 'all' } }, outsider.token)).status).toBe(404);
    expect((await s.api('POST', `${o}/search/prewarm`, { token: outsider.token })).status).toBe(404);
  });
});

describe('prewarmSiteSearch', () => {
  it("brings the site's indexes to the current content (204); the next search finds what changed", async () => {
    const cr = await call('POST', `/v1/spaces/${billing.space.id}/change-requests`, { subject: 'More' });
    await call('POST', `/v1/spaces/${billing.space.id}/change-requests/${cr.id}/content?compat=false`, {
      changes: [page('tax', 'Taxes', 'Quarterly zebra filings.')],
    });
    await call('POST', `/v1/spaces/${billing.space.id}/change-requests/${cr.id}/merge`);
    const warm = await s.api('POST', `${o}/search/prewarm`);
    expect(warm.status).toBe(204);
    expect(titles((await search({ query: 'zebra', scope: { mode: 'all' } })).body.items)).toEqual(['Billing/Taxes']);
  });
});

describe('getSitePublishingPreviewById', () => {
  it('the draft in the app by default; --draft=false the published address with claims; 400 for what is not there', async () => {
    const draft = await s.api('GET', `${o}/publishing/preview`);
    expect(draft.status).toBe(200);
    expect(draft.body.url).toBe(`${s.url}/o/${org}/sites/${site.id}`);
    const ss = structure[1].siteSpaces[0].id;
    expect((await s.api('GET', `${o}/publishing/preview?siteSpace=${ss}`)).body.url).toBe(`${s.url}/o/${org}/s/${billing.space.id}`);
    const live = await s.api('GET', `${o}/publishing/preview?draft=false&siteSpace=${ss}&claims=${encodeURIComponent("(plan:pro,beta:!t,name:'Ann Lee')")}`);
    expect(live.status, JSON.stringify(live.body)).toBe(200);
    const u = new URL(live.body.url);
    expect(`${u.origin}${u.pathname}`).toBe(`${site.urls.published}/billing`);
    expect(Object.fromEntries(u.searchParams)).toEqual({ 'visitor.plan': 'pro', 'visitor.beta': 'true', 'visitor.name': 'Ann Lee' });
    const target = await s.api('GET', `${o}/publishing/preview?draft=false&target=${encodeURIComponent(`${site.urls.published}/billing/invoices`)}`);
    expect(target.body.url).toBe(`${site.urls.published}/billing/invoices`);
    for (const bad of [
      `siteSpace=nope`,
      `claims=${encodeURIComponent('plan:pro')}`,
      `claims=${encodeURIComponent('(__proto__:x)')}`,
      `target=${encodeURIComponent('https://evil.example.com/x')}`,
      `target=${encodeURIComponent(`${site.urls.published}x/y`)}`,
    ]) {
      const r = await s.api('GET', `${o}/publishing/preview?draft=false&${bad}`);
      expect(r.status, bad).toBe(400);
    }
    const unpublished = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Not Yet', spaces: [guides.space.id] });
    const uo = `/v1/orgs/${org}/sites/${unpublished.id}`;
    expect((await s.api('GET', `${uo}/publishing/preview`)).body.url).toBe(`${s.url}/o/${org}/sites/${unpublished.id}`);
    const refused = await s.api('GET', `${uo}/publishing/preview?draft=false`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('is not published');
    const outsider = await addUser(s.ctx);
    expect((await s.api('GET', `${o}/publishing/preview`, { token: outsider.token })).status).toBe(404);
  });
});
