import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/kernel/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { page, spaceWith } from '../published/fixture.js';

// Site insights over HTTP (docs/manual/insights.md): events recorded through the API (every
// answer checked against both specs by s.api), refused whole on bad input, aggregated with
// select / where / groupBy / order / range / limit, and the visitor segments.

const clock = new ManualClock(Date.parse('2026-03-10T12:00:00.000Z'));
let s: TestServer;
let org: string;
let siteId: string;
let spaceId: string;
let ssId: string;
let pages: Record<string, any>;
beforeAll(async () => {
  s = await startServer({ clock });
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  const sp = await spaceWith(s, org, 'Guide', [page('a', 'Setup', '# Setup\n\nInstall it.\n'), page('b', 'Usage', '# Usage\n\nUse it.\n')]);
  spaceId = sp.space.id;
  pages = sp.pages;
  siteId = (await ok('POST', '/sites', { title: 'Insights', spaces: [spaceId] }, 201)).id;
  ssId = (await ok('GET', `/sites/${siteId}/site-spaces`)).items[0].id;
});
afterAll(() => s.stop());

async function ok(method: string, path: string, body?: unknown, status = 200) {
  const r = await s.api(method, `/v1/orgs/${org}${path}`, body === undefined ? {} : { body });
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(status);
  return r.body;
}
const E = () => `/sites/${siteId}/insights/events`;
const agg = (q: object) => ok('POST', `${E()}/aggregate`, q);

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
function ev(
  type: string,
  extra: object = {},
  o: { visitor?: string; session?: string; ua?: string; page?: string; url?: string; claims?: object; at?: string } = {},
) {
  return {
    type,
    ...(o.at ? { timestamp: o.at } : {}),
    session: {
      visitorId: o.visitor ?? 'v1',
      sessionId: o.session ?? 's1',
      cookies: {},
      userAgent: o.ua ?? CHROME,
      language: 'en',
      referrer: 'https://search.example/?q=x',
      ...(o.claims ? { visitorAuthClaims: o.claims } : {}),
    },
    location: {
      url: o.url ?? 'https://docs.example/guide/setup?utm_source=newsletter',
      siteSection: null,
      siteSpace: ssId,
      siteShareKey: null,
      space: spaceId,
      revision: null,
      page: o.page ?? pages.Setup.id,
    },
    ...extra,
  };
}
const count = async () => (await agg({ range: 'last30Days', select: [{ column: 'eventsCount' }] })).columns[0].values[0] ?? 0;

describe('trackEventsInSiteById', () => {
  it('records a batch (204), then counts by type, day, page and visitor', async () => {
    // Three days: 2 views on the 8th, 3 events on the 9th, on the 10th a view, a search, a click and feedback.
    const day = async (iso: string, events: object[]) => {
      clock.set(iso);
      await ok('POST', E(), { events }, 204);
    };
    await day('2026-03-08T09:00:00.000Z', [ev('page_view'), ev('page_view', {}, { visitor: 'v2', session: 's2', ua: IPHONE })]);
    await day('2026-03-09T09:00:00.000Z', [ev('page_view'), ev('page_view', {}, { page: pages.Usage.id }), ev('search_type_query', { query: 'install' })]);
    await day('2026-03-10T11:59:00.000Z', [
      ev('page_view', {}, { visitor: 'v3', session: 's3', claims: { plan: 'pro' } }),
      ev('search_type_query', { query: 'install' }, { visitor: 'v3', session: 's3', claims: { plan: 'pro' } }),
      ev('link_click', { link: { target: { kind: 'url', url: 'https://github.com/x' }, position: 'content' } }),
      ev('page_post_feedback', { feedback: { rating: 'good' } }),
    ]);
    clock.set('2026-03-10T12:00:00.000Z');

    const byType = await agg({ range: 'last7Days', groupBy: [{ column: 'eventType' }] });
    expect(byType.columns).toEqual([
      { column: 'eventType', values: ['page_view', 'search_type_query', 'link_click', 'page_post_feedback'] },
      { column: 'eventsCount', values: [5, 2, 1, 1] },
    ]);

    const byDay = await agg({
      range: 'last7Days',
      select: [{ column: 'datetime', interval: 'day' }, { column: 'eventsCount' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }],
    });
    expect(byDay.columns).toEqual([
      { column: 'datetime', values: ['2026-03-08T00:00:00.000Z', '2026-03-09T00:00:00.000Z', '2026-03-10T00:00:00.000Z'] },
      { column: 'eventsCount', values: [2, 3, 4] },
      { column: 'visitorsCount', values: [2, 1, 2] },
      { column: 'sessionsCount', values: [2, 1, 2] },
    ]);

    // where on a dimension (before grouping), order and limit.
    const views = await agg({
      range: 'last7Days',
      where: [{ column: 'eventType', values: ['page_view'] }],
      groupBy: [{ column: 'page' }],
      select: [{ column: 'page' }, { column: 'eventsCount' }],
      order: { by: { column: 'eventsCount' }, direction: 'asc' },
      limit: 1,
    });
    expect(views.columns).toEqual([
      { column: 'page', values: [{ page: pages.Usage.id, space: spaceId }] },
      { column: 'eventsCount', values: [1] },
    ]);

    // A count filter (after grouping); devices, UTM and referrer from the session and the URL.
    const devices = await agg({
      range: 'last7Days',
      groupBy: [{ column: 'visitorDevice' }],
      where: [{ column: 'eventsCount', operator: 'greaterThan', values: [1] }],
    });
    expect(devices.columns).toEqual([
      { column: 'visitorDevice', values: ['desktop'] },
      { column: 'eventsCount', values: [8] },
    ]);
    const utm = await agg({ range: 'last7Days', select: [{ column: 'utmSource' }, { column: 'referrerDomain' }, { column: 'visitorsCount' }] });
    expect(utm.columns).toEqual([
      { column: 'utmSource', values: ['newsletter'] },
      { column: 'referrerDomain', values: ['search.example'] },
      { column: 'visitorsCount', values: [3] },
    ]);

    // Searches, link clicks and feedback.
    const searches = await agg({ range: 'last24Hours', groupBy: [{ column: 'eventSearchQuery' }] });
    expect(searches.columns[0]).toEqual({ column: 'eventSearchQuery', values: ['install'] });
    expect(searches.columns[1].values).toEqual([1]); // the one on the 9th is more than 24 hours ago
    const links = await agg({ range: 'last7Days', select: [{ column: 'eventLinkTargetDomain' }, { column: 'eventLinkPosition' }, { column: 'eventsCount' }] });
    expect(links.columns.map((c: any) => c.values)).toEqual([['github.com'], ['content'], [1]]);
    const feedback = await agg({
      range: 'last7Days',
      groupBy: [{ column: 'page' }],
      select: [{ column: 'pageFeedbackRating' }],
      where: [{ column: 'eventType', values: ['page_post_feedback'] }],
    });
    expect(feedback.columns).toEqual([{ column: 'pageFeedbackRating', values: [{ ok: 0, good: 1, bad: 0 }] }]);

    // A custom range, and a claim.
    const custom = await agg({ range: { from: '2026-03-09T00:00:00.000Z', to: '2026-03-09T23:59:59.999Z' }, select: [{ column: 'eventsCount' }] });
    expect(custom.columns[0].values).toEqual([3]);
    const plans = await agg({ range: 'last7Days', groupBy: [{ column: 'visitorClaim', claim: 'plan' }] });
    expect(plans.columns).toEqual([
      { column: 'visitorClaim', claim: 'plan', values: ['pro'] },
      { column: 'eventsCount', values: [2] },
    ]);

    const segs = await ok('GET', `/sites/${siteId}/insights/visitor-segments`);
    expect(segs.items).toEqual([
      { title: 'Anonymous visitors', claims: {}, events: 7, visitors: 2, sessions: 2 },
      { title: 'plan: pro', claims: { plan: 'pro' }, events: 2, visitors: 1, sessions: 1 },
    ]);
  });

  it('refuses unknown types, future or stale timestamps and places outside the site: 400 naming the field, nothing stored', async () => {
    const before = await count();
    const bad = async (events: object[], message: RegExp) => {
      const r = await s.api('POST', `/v1/orgs/${org}${E()}`, { body: { events } });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.error.message).toMatch(message);
    };
    await bad([ev('page_view'), { ...ev('page_view'), type: 'page_vue' }], /^body\.events\.1\.type: must be one of "page_view", "search_open", .*…$/);
    await bad([ev('page_view'), ev('page_view', {}, { at: '2026-03-10T12:10:00.000Z' })], /events\[1\]\.timestamp: .* is in the future/);
    await bad([ev('page_view', {}, { at: '2026-03-01T00:00:00.000Z' })], /events\[0\]\.timestamp: .* more than 5 minutes old/);
    await bad(
      [{ ...ev('page_view'), location: { ...ev('page_view').location, siteSpace: 'nope' } }],
      /events\[0\]\.location\.siteSpace: nope is not a site space/,
    );
    expect(await count()).toBe(before);
  });

  it('refuses aggregations it cannot answer: 400 naming the part', async () => {
    const bad = async (q: object, message: RegExp) => {
      const r = await s.api('POST', `/v1/orgs/${org}${E()}/aggregate`, { body: q });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.error.message).toMatch(message);
    };
    await bad({ range: { from: '2026-03-10T00:00:00Z', to: '2026-03-01T00:00:00Z' } }, /range: from .* is after to/);
    await bad({ range: 'last7Days', groupBy: [{ column: 'eventsCount' }] }, /groupBy\[0\]: eventsCount is a count/);
    await bad({ range: 'last7Days', order: { by: { column: 'url' }, direction: 'asc' } }, /order\.by: url is neither/);
    await bad({ range: 'yesterday' }, /range/);
  });

  it('is for members who see the site: a non-member gets 404', async () => {
    const { addUser } = await import('../helpers/people.js');
    const outsider = await addUser(s.ctx);
    const r = await s.api('POST', `/v1/orgs/${org}${E()}/aggregate`, { body: { range: 'last7Days' }, token: outsider.token });
    expect(r.status).toBe(404);
  });
});
