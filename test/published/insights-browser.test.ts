import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, page, spaceWith } from './fixture.js';

// The insights beacon in a real browser (docs/manual/insights.md#the-published-site-records-its-own-events):
// under the site's strict CSP the script records the page view, the "Was this page helpful?"
// answer and a link followed, with no CSP violation and no cookie; a browser sending Do Not
// Track records nothing. Debian's Chromium through playwright-core; skipped, saying why, without it.

const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));
if (!CHROMIUM) console.warn('insights browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');

let s: TestServer;
let browser: any;
let org: string;
let siteId: string;
let base: string;
beforeAll(async () => {
  if (!CHROMIUM) return;
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  s = await startServer();
  const call = api(s);
  org = (await call('GET', '/v1/orgs')).items[0].id;
  const sp = await spaceWith(s, org, 'Guide', [page('a', 'Setup', '# Setup\n\nSee [the source](https://example.com/source).\n')]);
  siteId = (await call('POST', `/v1/orgs/${org}/sites`, { title: 'Tracked', spaces: [sp.space.id] })).id;
  base = (await call('POST', `/v1/orgs/${org}/sites/${siteId}/publish`)).urls.published;
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await s?.stop();
});

const countBy = async () => {
  const r = await s.api('POST', `/v1/orgs/${org}/sites/${siteId}/insights/events/aggregate`, {
    body: { range: 'last24Hours', groupBy: [{ column: 'eventType' }] },
  });
  const [types, counts] = r.body.columns;
  return Object.fromEntries(types.values.map((t: string, i: number) => [t, counts.values[i]]));
};
const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 50 && !(await check()); i++) await new Promise((r) => setTimeout(r, 100));
};

describe.skipIf(!CHROMIUM)('the insights beacon in Chromium', () => {
  it('records a view, feedback and a link followed under the CSP, with no cookie and no violation', async () => {
    const ctx = await browser.newContext();
    const p = await ctx.newPage();
    const problems: string[] = [];
    p.on('console', (m: any) => m.type() === 'error' && problems.push(m.text()));
    p.on('pageerror', (e: Error) => problems.push(e.message));
    await ctx.route('https://example.com/**', (route: any) => route.fulfill({ status: 200, body: 'elsewhere' }));
    await p.goto(`${base}/setup`);
    await until(async () => (await countBy()).page_view === 1);
    await p.getByRole('group', { name: 'Page feedback' }).getByRole('button', { name: 'Yes' }).click();
    await p.getByText('Thank you for your feedback.').waitFor();
    await p.getByRole('link', { name: 'the source' }).click();
    await until(async () => (await countBy()).link_click === 1);
    expect(await countBy()).toEqual({ page_view: 1, page_post_feedback: 1, link_click: 1 });
    expect(await ctx.cookies()).toEqual([]);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('records nothing for a browser sending Do Not Track', async () => {
    const before = await countBy();
    const ctx = await browser.newContext({ extraHTTPHeaders: { DNT: '1' } });
    const p = await ctx.newPage();
    await p.goto(`${base}/setup`);
    await p.getByRole('group', { name: 'Page feedback' }).getByRole('button', { name: 'No' }).click();
    await new Promise((r) => setTimeout(r, 600));
    expect(await countBy()).toEqual(before);
    await ctx.close();
  });
});
