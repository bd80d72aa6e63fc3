import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteFindings } from '../../src/site-context/finding-tables.js';
import { ContextConnections } from '../../src/site-context/tables.js';
import { scanSite } from '../../src/site-context/scan.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { addRecords, ask, makeSite, type Site } from './fixture.js';

// The findings operations (src/site-context/findings-operations.ts): filters and orders, stats,
// a finding's status set by a person, the change request fixing a finding (a content gap's new
// page, a broken link rewritten) linked to it and counted once merged; permissions (read to read,
// edit to change) and bad input (400 naming the field, 404 for ids of another site; nothing changes).

let s: TestServer;
let site: Site;
let other: Site;
let reader: string;
const get = async (path: string) => (await s.api('GET', `${site.base}${path}`)).body;
let gapId: string;
let linkId: string;

beforeAll(async () => {
  s = await startServer();
  site = await makeSite(s);
  other = await makeSite(s, 'Other site');
  await ask(s, site, 'How do I configure SAML single sign-on with Okta?');
  await ask(s, site, 'How do I configure SAML single sign-on with Okta?');
  await addRecords(s, site, [{ title: 'SAML sign-on with Okta fails', body: 'Customer cannot configure SAML single sign-on with Okta.' }]);
  await scanSite(s.ctx, site.org, site.site);
  await scanSite(s.ctx, other.org, other.site);
  reader = (await addUser(s.ctx, site.org, 'read')).token;
  const items = (await get('/findings')).items;
  gapId = items.find((f: any) => f.type === 'content-gap').id;
  linkId = items.find((f: any) => f.title.includes('old/shipping')).id;
}, 90_000);
afterAll(() => s?.stop());

describe('listSiteFindings', () => {
  it('filters by type, severity, source, question, topic, change requests and time', async () => {
    expect((await get('/findings?type=broken-link')).count).toBe(3);
    expect((await get('/findings?type=broken-link&type=content-gap')).count).toBe(4);
    expect((await get('/findings?severity=low')).items.map((f: any) => f.severity)).toEqual(['low']);
    expect((await get('/findings?source=questions')).items.map((f: any) => f.id)).toEqual([gapId]);
    expect((await get(`/findings?source=connection:${site.connection}`)).items.map((f: any) => f.id)).toEqual([gapId]);
    const q = (await get(`/findings/${gapId}/questions`)).items[0].id;
    expect((await get(`/findings?question=${encodeURIComponent(q)}`)).count).toBe(1);
    const topic = (await get(`/findings/${gapId}`)).topic;
    expect((await get(`/findings?topic=${encodeURIComponent(topic)}`)).items.map((f: any) => f.id)).toEqual([gapId]);
    expect((await get('/findings?hasChangeRequests=true')).count).toBe(0);
    expect((await get('/findings?updatedAfter=2099-01-01T00:00:00Z')).count).toBe(0);
  });

  it('orders by severity and by sources', async () => {
    const sev = (await get('/findings?orderBy=severity')).items.map((f: any) => f.severity);
    expect(sev).toEqual([...sev].sort((a: string, b: string) => ['high', 'medium', 'low'].indexOf(a) - ['high', 'medium', 'low'].indexOf(b)));
    expect((await get('/findings?orderBy=sources')).items[0].id).toBe(gapId);
  });

  it('refuses filters naming what the site does not have (400 naming the field)', async () => {
    const topic = (await s.api('GET', `${site.base}/findings?topic=nope`)).body.error.message;
    expect(topic).toMatch(/^topic: no topic nope/);
    expect((await s.api('GET', `${site.base}/findings?question=nope`)).body.error.message).toMatch(/^question: /);
    expect((await s.api('GET', `${site.base}/findings?source=connection:nope`)).body.error.message).toMatch(/^source\[0\]: no connection nope/);
    expect((await s.api('GET', `${site.base}/findings?updatedAfter=2030-01-01T00:00:00Z&updatedBefore=2020-01-01T00:00:00Z`)).body.error.message).toMatch(
      /^updatedAfter: /,
    );
    expect((await s.api('GET', `${site.base}/findings?type=nope`)).status).toBe(400);
  });
});

describe('a finding', () => {
  it('is 404 in another site, or unknown', async () => {
    expect((await s.api('GET', `${other.base}/findings/${gapId}`)).status).toBe(404);
    expect((await s.api('GET', `${site.base}/findings/nope`)).status).toBe(404);
    expect((await s.api('GET', `${site.base}/scans/nope`)).status).toBe(404);
  });

  it('a reader reads it but may not change it (403); a bad status is a 400; nothing changes', async () => {
    expect((await s.api('GET', `${site.base}/findings/${gapId}`, { token: reader })).status).toBe(200);
    expect((await s.api('PATCH', `${site.base}/findings/${gapId}`, { token: reader, body: { status: 'done' } })).status).toBe(403);
    expect((await s.api('POST', `${site.base}/findings/${gapId}/change-requests`, { token: reader })).status).toBe(403);
    expect((await s.api('PATCH', `${site.base}/findings/${gapId}`, { body: { status: 'solved' } })).status).toBe(400);
    expect((await s.api('PATCH', `${other.base}/findings/${gapId}`, { body: { status: 'done' } })).status).toBe(404);
    expect((await get(`/findings/${gapId}`)).status).toBe('open');
    const row = await s.ctx.store.read((tx) => tx.get(SiteFindings, gapId));
    expect(row?.statusBy).toBe('scan');
  });
});

describe('triggerChangeRequestsForSiteFinding', () => {
  it('a content gap: a draft change request with a new page quoting its questions and records, linked to the finding', async () => {
    expect((await s.api('POST', `${site.base}/findings/${gapId}/change-requests`)).status).toBe(202);
    const crs = (await get(`/findings/${gapId}/change-requests`)).items;
    expect(crs).toMatchObject([{ object: 'change-request', status: 'draft', space: site.space }]);
    expect((await get(`/findings/${gapId}`)).changeRequests).toBe(1);
    const pages = (await s.api('GET', `/v1/spaces/${site.space}/change-requests/${crs[0].id}/content/pages`)).body.pages;
    const page = pages.find((p: any) => !['Refunds', 'Shipping', 'Policy'].includes(p.title));
    const md = (await s.api('GET', `/v1/spaces/${site.space}/change-requests/${crs[0].id}/content/page/${page.id}?format=markdown`)).body.markdown;
    expect(md).toContain('How do I configure SAML single sign-on with Okta? (asked 2 times');
    expect(md).toContain('[SAML sign-on with Okta fails](https://support.example.com/');
    expect((await get('/findings?hasChangeRequests=true')).items.map((f: any) => f.id)).toEqual([gapId]);
    // The agent's conversation is kept with the draft it wrote (listChangeRequestConversations).
    const convs = (await s.api('GET', `/v1/spaces/${site.space}/change-requests/${crs[0].id}/conversations`)).body.items;
    expect(convs).toMatchObject([{ id: 'default', title: (await get(`/findings/${gapId}`)).title }]);
  });

  it('a broken link: the page with the link leading to the page named like the missing one; merged, it counts in the stats', async () => {
    expect((await s.api('POST', `${site.base}/findings/${linkId}/change-requests`)).status).toBe(202);
    const cr = (await get(`/findings/${linkId}/change-requests`)).items[0];
    const pages = (await s.api('GET', `/v1/spaces/${site.space}/change-requests/${cr.id}/content/pages`)).body.pages;
    const refunds = pages.find((p: any) => p.title === 'Refunds');
    const shipping = pages.find((p: any) => p.title === 'Shipping');
    const md = (await s.api('GET', `/v1/spaces/${site.space}/change-requests/${cr.id}/content/page/${refunds.id}?format=markdown`)).body.markdown;
    expect(md).not.toContain('old/shipping');
    expect(md).toContain(`[shipping](/pages/${shipping.id})`);
    expect((await get('/stats/findings')).mergedChangeRequests).toBe(0);
    // A draft is made ready for review before it is merged.
    expect((await s.api('PATCH', `/v1/spaces/${site.space}/change-requests/${cr.id}`, { body: { status: 'open' } })).status).toBe(200);
    const merged = await s.api('POST', `/v1/spaces/${site.space}/change-requests/${cr.id}/merge`);
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect((await get('/stats/findings')).mergedChangeRequests).toBe(1);
  });

  it("follows usageSettings.changeRequests: a topic's off refuses (400, nothing opened); a connection's off keeps its records out", async () => {
    const topic = (await get(`/findings/${gapId}`)).topic;
    const setTopic = async (on: boolean) =>
      expect((await s.api('PATCH', `${site.base}/topics/${encodeURIComponent(topic)}`, { body: { usageSettings: { changeRequests: on } } })).status).toBe(200);
    await setTopic(false);
    const before = (await get(`/findings/${gapId}`)).changeRequests;
    const refused = await s.api('POST', `${site.base}/findings/${gapId}/change-requests`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^siteFindingId: .* usageSettings\.changeRequests is false/);
    expect((await get(`/findings/${gapId}`)).changeRequests).toBe(before);
    await setTopic(true);

    // The fixture's connection is a zendesk one, written as rows (test/site-context/fixture.ts): its setting is set the same way.
    const setConnection = (changeRequests: boolean) =>
      s.ctx.store.write((tx) => {
        const c = tx.get(ContextConnections, site.connection)!;
        tx.put(ContextConnections, { ...c, usageSettings: { ...c.usageSettings, changeRequests } });
      });
    await setConnection(false);
    try {
      expect((await s.api('POST', `${site.base}/findings/${gapId}/change-requests`)).status).toBe(202);
      const cr = (await get(`/findings/${gapId}/change-requests`)).items[0];
      const pages = (await s.api('GET', `/v1/spaces/${site.space}/change-requests/${cr.id}/content/pages`)).body.pages;
      const page = pages.find((p: any) => !['Refunds', 'Shipping', 'Policy'].includes(p.title));
      const md = (await s.api('GET', `/v1/spaces/${site.space}/change-requests/${cr.id}/content/page/${page.id}?format=markdown`)).body.markdown;
      expect(md).toContain('How do I configure SAML single sign-on with Okta?');
      expect(md).not.toContain('SAML sign-on with Okta fails');
    } finally {
      await setConnection(true);
    }
  });

  it('refuses a finding that is done (400), and ids of another site (404)', async () => {
    expect((await s.api('PATCH', `${site.base}/findings/${linkId}`, { body: { status: 'done' } })).body.status).toBe('done');
    expect((await s.api('POST', `${site.base}/findings/${linkId}/change-requests`)).body.error.message).toMatch(/^siteFindingId: .* is done/);
    expect((await s.api('POST', `${other.base}/findings/${gapId}/change-requests`)).status).toBe(404);
  });
});

describe('getSiteFindingStats', () => {
  it('counts by status, severity and connector, and the findings with questions; candidates never', async () => {
    const st = await get('/stats/findings');
    // The list shows open, done and canceled findings (candidates only when asked for).
    const shown = (await get('/findings')).count;
    expect(st.total).toBe(shown);
    expect(st.statuses).toEqual({ open: 3, done: 1, canceled: 0 });
    expect(st.connectors).toEqual({ 'builtin:zendesk': 1 });
    expect(st.questions).toBe(1);
    expect((await get('/stats/findings?type=content-gap')).total).toBe(1);
  });
});
