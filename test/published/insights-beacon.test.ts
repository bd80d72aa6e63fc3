import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_JS } from '../../src/published/render/script.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, page, spaceWith } from './fixture.js';

// The published site records its own events (docs/manual/insights.md#the-published-site-records-its-own-events):
// `POST <site>/~/events` from the site's script, the page found from the URL, the visitor a daily
// hash (no cookie), batched, nothing for Do-Not-Track / Global Privacy Control, refused from
// another origin, 400 naming the field. The script itself is tested in Chromium (insights-browser.test.ts).

let s: TestServer;
let org: string;
let siteId: string;
let base: string;
let pages: Record<string, any>;
let spaceId: string;
beforeAll(async () => {
  s = await startServer();
  const call = api(s);
  org = (await call('GET', '/v1/orgs')).items[0].id;
  const sp = await spaceWith(s, org, 'Guide', [page('a', 'Setup', '# Setup\n\nInstall it.\n'), page('b', 'Usage', '# Usage\n\nUse it.\n')]);
  pages = sp.pages;
  spaceId = sp.space.id;
  siteId = (await call('POST', `/v1/orgs/${org}/sites`, { title: 'Beacon', spaces: [spaceId] })).id;
  base = (await call('POST', `/v1/orgs/${org}/sites/${siteId}/publish`)).urls.published;
}, 60_000);
afterAll(() => s.stop());

const UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
const beacon = (events: object[], headers: Record<string, string> = {}) =>
  fetch(`${base}/~/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(base).origin, 'user-agent': UA, 'accept-language': 'fr-FR,fr;q=0.9', ...headers },
    body: JSON.stringify({ events }),
  });
const agg = async (q: object) => {
  const r = await s.api('POST', `/v1/orgs/${org}/sites/${siteId}/insights/events/aggregate`, { body: { range: 'last24Hours', ...q } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.columns;
};
const total = async () => (await agg({ select: [{ column: 'eventsCount' }] }))[0].values[0] ?? 0;

describe('the beacon', () => {
  it('records page views with the page found from the URL, searches, feedback and link clicks; no cookie set', async () => {
    const r = await beacon([
      { type: 'page_view', url: `${base}/usage?utm_source=mail`, referrer: 'https://news.example/item' },
      { type: 'page_view', url: `${base}/nowhere` },
      { type: 'search_type_query', url: `${base}/~/search?q=install`, query: 'install' },
      { type: 'page_post_feedback', url: `${base}/usage`, rating: 'bad' },
      { type: 'link_click', url: `${base}/usage`, href: 'https://github.com/acme', position: 'content' },
    ]);
    expect(r.status).toBe(204);
    expect(r.headers.get('set-cookie')).toBeNull();
    const byPage = await agg({
      where: [{ column: 'eventType', values: ['page_view'] }],
      groupBy: [{ column: 'page' }],
      order: { by: { column: 'page' }, direction: 'asc' },
    });
    // null: the URL the site has no page at (a 404).
    expect(byPage[0].values).toEqual([null, { page: pages.Usage.id, space: spaceId }]);
    const who = await agg({
      select: [{ column: 'visitorBrowser' }, { column: 'visitorOS' }, { column: 'visitorLanguage' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }],
    });
    expect(who.map((c: any) => c.values)).toEqual([['safari'], ['macos'], ['fr-FR'], [1], [1]]);
    expect((await agg({ groupBy: [{ column: 'referrerDomain' }], where: [{ column: 'eventType', values: ['page_view'] }] }))[0].values).toContain(
      'news.example',
    );
    expect((await agg({ groupBy: [{ column: 'eventSearchQuery' }] }))[0].values).toEqual(['install']);
    expect((await agg({ select: [{ column: 'pageFeedbackRating' }], where: [{ column: 'eventType', values: ['page_post_feedback'] }] }))[0].values).toEqual([
      { ok: 0, good: 0, bad: 1 },
    ]);
    expect((await agg({ groupBy: [{ column: 'eventLinkTargetDomain' }] }))[0].values).toEqual(['github.com']);
  });

  it('records nothing for Do-Not-Track or Global Privacy Control (204 all the same)', async () => {
    const before = await total();
    expect((await beacon([{ type: 'page_view', url: `${base}/usage` }], { dnt: '1' })).status).toBe(204);
    expect((await beacon([{ type: 'page_view', url: `${base}/usage` }], { 'sec-gpc': '1' })).status).toBe(204);
    expect(await total()).toBe(before);
  });

  it('refuses another origin (403), bad events (400 naming the field, nothing stored), an unknown site (404)', async () => {
    const before = await total();
    expect((await beacon([{ type: 'page_view', url: `${base}/usage` }], { origin: 'https://evil.example' })).status).toBe(403);
    const bad = async (events: object[], message: RegExp) => {
      const r = await beacon(events);
      expect(r.status).toBe(400);
      expect((await r.json()).error.message).toMatch(message);
    };
    await bad(
      [
        { type: 'page_view', url: `${base}/usage` },
        { type: 'ad_click', url: `${base}/usage` },
      ],
      /^events\[1\]\.type: unknown event type "ad_click"/,
    );
    await bad([{ type: 'page_view', url: 'https://elsewhere.example/sites/x/y' }], /^events\[0\]\.url: not a page of this site/);
    await bad([{ type: 'page_post_feedback', url: `${base}/usage`, rating: 'great' }], /^events\[0\]\.rating: must be one of bad, ok, good/);
    await bad([{ type: 'link_click', url: `${base}/usage`, href: 'javascript:alert(1)', position: 'content' }], /^events\[0\]\.href/);
    expect(await total()).toBe(before);
    const r = await fetch(`${s.url}/sites/${org}/no-such-site/~/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"events":[]}',
    });
    expect(r.status).toBe(404);
  });

  it('batches posts that arrive together into one stored row', async () => {
    const { SiteInsightBatches } = await import('../../src/sites/tables.js');
    const rows = () => s.ctx.store.read((tx) => tx.find(SiteInsightBatches, 'site', siteId).length);
    const before = await rows();
    const posts = await Promise.all(Array.from({ length: 20 }, () => beacon([{ type: 'page_view', url: `${base}/setup` }])));
    expect(posts.every((p) => p.status === 204)).toBe(true);
    expect((await rows()) - before).toBeLessThanOrEqual(2);
  });

  it("the site's script sends to the site's own origin, and nothing when the browser asks not to be tracked", () => {
    expect(() => new Function(SITE_JS)).not.toThrow();
    expect(SITE_JS).toContain('new URL("events",me.src)');
    expect(SITE_JS).toMatch(/navigator\.doNotTrack==="1"\|\|window\.doNotTrack==="1"\|\|navigator\.globalPrivacyControl===true/);
    expect(SITE_JS).not.toMatch(/https?:\/\/(?!\/)/);
  });
});

describe('the beacon under a flood', () => {
  it('posts past the per-address limit get 429 with Retry-After and store nothing', async () => {
    const { BEACON_POST_BURST } = await import('../../server/published/sites.js');
    // Let the bucket fill again after the posts above, then count what is stored.
    await new Promise((r) => setTimeout(r, 3_100));
    const before = await total();
    const answers = await Promise.all(Array.from({ length: BEACON_POST_BURST + 15 }, () => beacon([{ type: 'page_view', url: `${base}/usage` }])));
    const limited = answers.filter((r) => r.status === 429);
    const stored = answers.filter((r) => r.status === 204).length;
    expect(limited.length).toBeGreaterThan(0);
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await limited[0]!.json()).error.message).toMatch(/too many event posts/);
    expect(stored).toBeLessThanOrEqual(BEACON_POST_BURST + 2);
    expect(await total()).toBe(before + stored);
  });
});
