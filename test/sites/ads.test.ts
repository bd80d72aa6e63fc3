import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GitBookAPI } from 'gitbook-api-latest';
import { docs } from '../helpers/cli.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { get } from '../published/fixture.js';

// Site ads (docs/manual/sites.md#ads): a site admin submits a published public site for review
// (updateSiteAdsById), the partner holding this server's key (X-GitBook-Partner-Key, checked
// against DOCS_ADS_PARTNER_KEY) lists and decides (adsListSites, adsUpdateSite); the site's `ads`
// shows where it stands; a published page draws nothing from an ad network, live or not.

const KEY = 'partner-secret-1';
let s: TestServer;
let org: string;
let site: string;
let published: string;
const o = () => `/v1/orgs/${org}/sites/${site}`;
const partner = (extra: Record<string, string> = {}) => ({ 'X-GitBook-Partner-Key': KEY, ...extra });

beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Docs' } })).body.id;
  site = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Ads site', spaces: [space] } })).body.id;
});
afterAll(() => s?.stop());
afterEach(() => {
  delete process.env.DOCS_ADS_PARTNER_KEY;
});

describe('site ads', () => {
  it('a site starts pending; it can be submitted once published and public, with a topic', async () => {
    expect((await s.api('GET', o())).body.ads).toEqual({ status: 'pending', submittable: false });
    const early = await s.api('POST', `${o()}/ads`, { body: { status: 'in-review', topic: 'webdev' } });
    expect([early.status, early.body.error.message]).toEqual([400, expect.stringContaining('published and public')]);
    await s.api('PATCH', o(), { body: { visibility: 'public' } });
    published = (await s.api('POST', `${o()}/publish`)).body.urls.published;
    expect((await s.api('GET', o())).body.ads).toEqual({ status: 'pending', submittable: true });
    const noTopic = await s.api('POST', `${o()}/ads`, { body: { status: 'in-review' } });
    expect([noTopic.status, noTopic.body.error.message]).toEqual([400, expect.stringMatching(/^topic: /)]);
    expect((await s.api('POST', `${o()}/ads`, { body: { status: 'in-review', topic: 'webdev' } })).status).toBe(204);
    expect((await s.api('GET', o())).body.ads).toEqual({ status: 'in-review', topic: 'webdev' });
    // A member who is not a site admin may not; their view says not submittable.
    const editor = await addUser(s.ctx, org, 'edit');
    expect((await s.api('POST', `${o()}/ads`, { token: editor.token, body: { topic: 'crypto' } })).status).toBe(403);
  });

  it('the partner side is refused without a configured key, or with a wrong one', async () => {
    const none = await s.api('GET', '/v1/ads/sites', { headers: partner() });
    expect([none.status, none.body.error.message]).toEqual([403, expect.stringContaining('no ads partner is configured')]);
    process.env.DOCS_ADS_PARTNER_KEY = KEY;
    expect((await s.api('GET', '/v1/ads/sites', { headers: partner({ 'X-GitBook-Partner-Key': 'nope' }) })).status).toBe(403);
    const missing = await s.api('GET', '/v1/ads/sites');
    expect([missing.status, missing.body.error.message]).toEqual([400, 'header X-GitBook-Partner-Key: is required']);
  });

  it('the partner lists the sites in review, sets one live with its zone; nothing is drawn from an ad network', async () => {
    process.env.DOCS_ADS_PARTNER_KEY = KEY;
    const before = (await get(s, `${published}`)) as any;
    const list = await s.api('GET', '/v1/ads/sites', { headers: partner() });
    expect(list.body.items).toEqual([
      { id: site, url: expect.stringContaining('/sites/'), email: expect.stringContaining('@'), topic: 'webdev', status: 'in-review' },
    ]);
    const live = await s.api('PATCH', `/v1/ads/sites/${site}`, { headers: partner(), body: { status: 'live', zoneId: 'zone-7', reportingId: 'rep-7' } });
    expect(live.status).toBe(204);
    expect((await s.api('GET', o())).body.ads).toEqual({ status: 'live', topic: 'webdev', zoneId: 'zone-7' });
    expect((await s.api('GET', '/v1/ads/sites?status=live', { headers: partner() })).body.items).toEqual([
      expect.objectContaining({ id: site, zoneId: 'zone-7' }),
    ]);
    expect((await s.api('GET', '/v1/ads/sites', { headers: partner() })).body.items).toEqual([]);
    // Live or not, the published page is the same: same policy, no script or frame from elsewhere.
    const after = (await get(s, `${published}`)) as any;
    expect(after.headers.get('content-security-policy')).toBe(before.headers.get('content-security-policy'));
    expect(after.text).not.toMatch(/zone-7|<iframe|<script[^>]+src="https?:/);
    // The site admin turns ads off (the zone is kept); the partner rejects another submission.
    expect((await s.api('POST', `${o()}/ads`, { body: { status: 'disabled' } })).status).toBe(204);
    expect((await s.api('GET', o())).body.ads).toEqual({ status: 'disabled', topic: 'webdev', zoneId: 'zone-7' });
    expect((await s.api('POST', `${o()}/ads`, { body: { status: 'in-review', topic: 'crypto' } })).status).toBe(204);
    expect((await s.api('PATCH', `/v1/ads/sites/${site}`, { headers: partner(), body: { status: 'rejected', reason: 'Too short' } })).status).toBe(204);
    expect((await s.api('GET', o())).body.ads).toEqual({ status: 'rejected', reason: 'Too short' });
    expect((await s.api('PATCH', '/v1/ads/sites/nope', { headers: partner(), body: { status: 'pending' } })).status).toBe(404);
  });

  it('through the official 0.202.0 client and the CLI', async () => {
    process.env.DOCS_ADS_PARTNER_KEY = KEY;
    const api: any = new GitBookAPI({ endpoint: s.url, authToken: s.token });
    await api.orgs.updateSiteAdsById(org, site, { status: 'in-review', topic: 'webdev' });
    const listed = await api.ads.adsListSites({}, { headers: { 'X-GitBook-Partner-Key': KEY } });
    expect(listed.data.items.map((x: any) => x.id)).toEqual([site]);
    const env = { DOCS_API_URL: s.url, DOCS_TOKEN: s.token };
    expect((await docs(['sites', 'ads', site, '--org', org, '--status', 'disabled'], env)).status).toBe(0);
    expect((await s.api('GET', o())).body.ads.status).toBe('pending');
    await docs(['sites', 'ads', site, '--org', org, '--status', 'in-review', '--topic', 'webdev'], env);
    const out = await docs(['ads', 'sites', '--json'], { ...env, DOCS_ADS_PARTNER_KEY: KEY });
    expect([out.status, out.json.items?.[0]?.id ?? out.json[0]?.id]).toEqual([0, site]);
    const set = await docs(['ads', 'update', site, '--status', 'rejected', '--reason', 'No'], { ...env, DOCS_ADS_PARTNER_KEY: KEY });
    expect(set.status, set.stderr).toBe(0);
    expect((await s.api('GET', o())).body.ads).toEqual({ status: 'rejected', reason: 'No' });
  });
});
