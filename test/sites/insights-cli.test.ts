import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { runBoth } from '../helpers/parity.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { filled, sparkline } from '../../commands/sites/insights.js';

// `docs sites insights`, `docs sites events track|aggregate`, `docs sites visitor-segments`: the
// same scenario in process and over HTTP (docs/manual/insights.md#in-the-terminal), and the
// operations' transport parity.

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

const event = (type: string, url: string, visitor: string, extra: object = {}) => ({
  type,
  session: {
    visitorId: visitor,
    sessionId: `${visitor}-s`,
    cookies: {},
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0',
    language: 'en',
    referrer: null,
  },
  location: { url, siteSection: null, siteSpace: null, siteShareKey: null, space: null, revision: null, page: null },
  ...extra,
});

async function scenario(env: Record<string, string>) {
  const run = async (args: string[], code = 0) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(code);
    return r;
  };
  const site = (await run(['sites', 'create', '--title', 'Tracked', '--json'])).json.id;
  const events = [
    event('page_view', 'https://docs.example/a', 'v1'),
    event('page_view', 'https://docs.example/a', 'v2'),
    event('page_view', 'https://docs.example/b', 'v1'),
    event('search_type_query', 'https://docs.example/~/search', 'v1', { query: 'install' }),
  ];
  expect((await run(['sites', 'events', 'track', site, '--events', JSON.stringify(events)])).stdout).toContain(`Recorded the events of site ${site}.`);
  const shown = (await run(['sites', 'insights', site])).stdout;
  const lines = shown.split('\n');
  expect(lines[0]).toBe('last7Days: 4 events, 2 visitors, 2 sessions');
  // Today's bar is the week's only one: the highest.
  expect(lines[1]).toMatch(/^per day {2}\s*█ {2}\(max 4\)$/);
  const table = lines.slice(2).join('\n');
  expect(table).toMatch(/https:\/\/docs\.example\/a\s+2\s+2/);
  expect(table.indexOf('docs.example/a')).toBeLessThan(table.indexOf('docs.example/b'));
  const searches = (await run(['sites', 'insights', site, '--by', 'eventSearchQuery', '--type', 'search_type_query'])).stdout;
  expect(searches).toMatch(/install\s+1\s+1/);
  const agg = JSON.parse(
    (await run(['sites', 'events', 'aggregate', site, '--range', 'last24Hours', '--group-by', '[{"column":"visitorBrowser"}]', '--json'])).stdout,
  );
  expect(agg.columns).toEqual([
    { column: 'visitorBrowser', values: ['firefox'] },
    { column: 'eventsCount', values: [4] },
  ]);
  expect((await run(['sites', 'visitor-segments', site])).stdout).toMatch(/Anonymous visitors\s+4\s+2\s+2/);
  // Bad input: exit 2 naming the field, nothing recorded.
  const bad = await run(['sites', 'events', 'track', site, '--events', JSON.stringify([{ ...events[0], type: 'page_vue' }])], 2);
  expect(bad.stderr).toMatch(/events\.0\.type/);
  expect(JSON.parse((await run(['sites', 'insights', site, '--json'])).stdout).totals[0].values).toEqual([4]);
  return shown.replace(/\s+$/, '');
}

describe('docs sites insights', () => {
  it('in process and over HTTP, the same', async () => {
    const local = await scenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_cli' });
    const remote = await scenario({ DOCS_API_URL: s.url, DOCS_TOKEN: s.token });
    expect(remote).toEqual(local);
  });

  it('draws days with no event as gaps, scaled to the busiest', () => {
    const day = 86_400_000;
    const counts = filled(
      ['2026-03-02T00:00:00.000Z', '2026-03-04T00:00:00.000Z'],
      [2, 8],
      Date.parse('2026-03-01T12:00:00Z'),
      Date.parse('2026-03-04T12:00:00Z'),
      day,
    );
    expect(counts).toEqual([0, 2, 0, 8]);
    expect(sparkline(counts)).toBe(' ▂ █');
  });

  it('transport parity of the operations', async () => {
    const { local, remote } = await runBoth(s, async (t) => {
      const out: unknown[] = [];
      const org = ((await t.call('listOrganizationsForAuthenticatedUser', {})).body as any).items[0].id;
      const site = (await t.call('createSite', { path: { organizationId: org }, body: { title: 'Parity' } })).body as any;
      const p = { organizationId: org, siteId: site.id };
      out.push((await t.call('trackEventsInSiteById', { path: p, body: { events: [event('page_view', 'https://x.example/', 'v1')] } })).status);
      out.push((await t.call('aggregateSiteEvents', { path: p, body: { range: 'last24Hours', groupBy: [{ column: 'url' }] } })).body);
      out.push((await t.call('listSiteVisitorSegments', { path: p })).body);
      try {
        await t.call('aggregateSiteEvents', { path: p, body: { range: 'last24Hours', groupBy: [{ column: 'eventsCount' }] } });
      } catch (e: any) {
        out.push(e.kind, e.message);
      }
      return out;
    });
    expect(remote).toEqual(local);
    expect(local).toContain('groupBy[0]: eventsCount is a count, not a column to group by');
  });
});
