import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanSite } from '../../src/site-context/scan.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { addRecords, ask, makeSite, type Site } from './fixture.js';

// Topics (src/site-context/scan-topics.ts, docs/manual/site-findings.md#topics): questions and
// records grouped by what they are about, labelled by their top terms, with the same id from one
// scan to the next; their counts; updateSiteTopicById (usage settings); deleteSiteTopicFindings.

let s: TestServer;
let site: Site;
let other: Site;
const get = async (path: string) => (await s.api('GET', `${site.base}${path}`)).body;

beforeAll(async () => {
  s = await startServer();
  site = await makeSite(s);
  other = await makeSite(s, 'Other');
  await ask(s, site, 'How do I get a refund for my purchase?');
  await ask(s, site, 'Refund of a purchase by card?');
  await ask(s, site, 'How do I configure SAML single sign-on with Okta?');
  await addRecords(s, site, [{ title: 'SAML single sign-on with Okta', body: 'Configure SAML single sign-on with Okta for the team.' }]);
  await scanSite(s.ctx, site.org, site.site);
}, 90_000);
afterAll(() => s?.stop());

describe('listSiteTopics', () => {
  it('groups questions and records by their words, labels them by their top terms, the largest first (then by label), with counts', async () => {
    const items = (await get('/topics')).items;
    // Two of each: equal sizes, so by label.
    expect(items.map((t: any) => t.label)).toEqual(['Okta, saml, sign', expect.stringMatching(/^Purchase|^Refund/)]);
    const refund = items.find((t: any) => /refund/i.test(t.label));
    expect(refund).toMatchObject({
      object: 'context-topic',
      records: 0,
      findings: { open: 0, total: 0 },
      questions: { total: 2, answers: 2 },
      usageSettings: { changeRequests: true },
    });
    expect(refund.pages).toBeGreaterThan(0);
    const saml = items.find((t: any) => /saml/i.test(t.label));
    expect(saml).toMatchObject({ records: 1, questions: { total: 1 }, findings: { open: 1, total: 1 } });
  });

  it('keeps the same topic ids when scanned again with more evidence', async () => {
    const before = (await get('/topics')).items.map((t: any) => t.id).sort();
    await ask(s, site, 'Can I get a refund after 40 days?');
    await scanSite(s.ctx, site.org, site.site);
    const after = (await get('/topics')).items;
    expect(after.map((t: any) => t.id).sort()).toEqual(before);
    expect(after.find((t: any) => /refund/i.test(t.label)).questions.total).toBe(3);
  });

  it('counts the questions answered in from..to; a range backwards is a 400', async () => {
    const none = (await get('/topics?from=2099-01-01T00:00:00Z')).items.find((t: any) => /refund/i.test(t.label));
    expect(none.questions.answers).toBe(0);
    expect((await s.api('GET', `${site.base}/topics?from=2030-01-01T00:00:00Z&to=2020-01-01T00:00:00Z`)).body.error.message).toMatch(/^from: /);
  });
});

describe('a topic', () => {
  it('reads by id; 404 unknown or of another site', async () => {
    const t = (await get('/topics')).items[0];
    expect(await get(`/topics/${encodeURIComponent(t.id)}`)).toEqual(t);
    expect((await s.api('GET', `${other.base}/topics/${encodeURIComponent(t.id)}`)).status).toBe(404);
    expect((await s.api('GET', `${site.base}/topics/nope`)).status).toBe(404);
  });

  it('its usage settings change (edit role; a reader 403), and a re-scan keeps them', async () => {
    const t = (await get('/topics')).items[0];
    const reader = (await addUser(s.ctx, site.org, 'read')).token;
    const url = `${site.base}/topics/${encodeURIComponent(t.id)}`;
    expect((await s.api('PATCH', url, { token: reader, body: { usageSettings: { changeRequests: false } } })).status).toBe(403);
    expect((await s.api('PATCH', url, { body: {} })).status).toBe(400);
    const r = await s.api('PATCH', url, { body: { usageSettings: { changeRequests: false } } });
    expect(r.body.usageSettings).toEqual({ changeRequests: false });
    await scanSite(s.ctx, site.org, site.site);
    expect((await get(`/topics/${encodeURIComponent(t.id)}`)).usageSettings).toEqual({ changeRequests: false });
  });

  it('deleteSiteTopicFindings deletes its findings (205), then has none (204); an unknown topic is 204; a reader 403', async () => {
    const saml = (await get('/topics')).items.find((t: any) => /saml/i.test(t.label));
    const url = `${site.base}/topics/${encodeURIComponent(saml.id)}/findings`;
    const reader = (await addUser(s.ctx, site.org, 'read')).token;
    expect((await s.api('DELETE', url, { token: reader })).status).toBe(403);
    expect((await s.api('DELETE', url)).status).toBe(205);
    expect((await get(`/findings?topic=${encodeURIComponent(saml.id)}`)).count).toBe(0);
    expect((await get(`/topics/${encodeURIComponent(saml.id)}`)).findings).toEqual({ open: 0, total: 0 });
    expect((await s.api('DELETE', url)).status).toBe(204);
    expect((await s.api('DELETE', `${site.base}/topics/nope/findings`)).status).toBe(204);
  });
});
