import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/kernel/root.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, page as pageChange, spaceWith } from './fixture.js';

// Published sites in a real browser: Debian's Chromium driven by playwright-core (never a
// browser download). Skipped, saying why, only when no Chromium is found.

const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));
if (!CHROMIUM) console.warn('browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');

const EVERY_BLOCK = `Intro with **bold** and \`code\`.

## Table

| Name | Value |
| ---- | ----- |
| a    | 1     |

\`\`\`js
const answer = 42;
\`\`\`

{% hint style="info" %}
A hint.
{% endhint %}

{% tabs %}
{% tab title="npm" %}
npm install
{% endtab %}
{% tab title="yarn" %}
yarn add
{% endtab %}
{% endtabs %}

<details>
<summary>More</summary>
Hidden detail.
</details>

- [x] done
- [ ] todo
`;

let s: TestServer;
let browser: any;
let base: string;
let shared: { url: string; key: string };
let adaptive: string;
const artifacts = join(packageRoot(), 'test-artifacts');

beforeAll(async () => {
  if (!CHROMIUM) return;
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  s = await startServer();
  const call = api(s);
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  const guides = await spaceWith(s, org, 'Guides', [
    pageChange('start', 'Getting Started', 'Install the gadget.\n\n## Steps\n\nDo it.'),
    pageChange('every', 'Every Block', EVERY_BLOCK),
    pageChange('admin', 'Admin Corner', 'Admins only.', { condition: 'visitor.claims.role === "admin"' }),
  ]);
  const v2 = await spaceWith(s, org, 'API v2', [pageChange('ref', 'Reference', 'The v2 reference.')]);
  const v1 = await spaceWith(s, org, 'API v1', [pageChange('ref', 'Reference', 'The v1 reference.')]);
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Browser Docs' });
  const o = `/v1/orgs/${org}/sites/${site.id}`;
  await call('POST', `${o}/sections`, { spaceId: guides.space.id, title: 'Guides' });
  const apiSection = await call('POST', `${o}/sections`, { spaceId: v2.space.id, title: 'API' });
  await call('POST', `${o}/site-spaces`, { spaceId: v1.space.id, sectionId: apiSection.id });
  base = (await call('POST', `${o}/publish`)).urls.published;
  const sh = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Shared Docs', spaces: [guides.space.id], visibility: 'share-link' });
  const link = await call('POST', `/v1/orgs/${org}/sites/${sh.id}/share-links`, { name: 'Team' });
  shared = {
    url: (await call('POST', `/v1/orgs/${org}/sites/${sh.id}/publish`)).urls.published.split('?')[0],
    key: new URL(link.urls.published).searchParams.get('share')!,
  };
  const ad = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Adaptive Docs', spaces: [guides.space.id] });
  adaptive = (await call('POST', `/v1/orgs/${org}/sites/${ad.id}/publish`)).urls.published;
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await s?.stop();
});

const visit = async (url: string) => {
  const ctx = await browser.newContext();
  const p = await ctx.newPage();
  const res = await p.goto(url);
  return { ctx, p, res };
};

async function noSeriousViolations(p: any, what: string) {
  const AxeBuilder = ((await import('@axe-core/playwright')) as any).default;
  const r = await new AxeBuilder({ page: p }).analyze();
  const bad = r.violations
    .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: any) => `${v.id}: ${v.help} (${v.nodes.map((n: any) => n.target.join(' ')).join(', ')})`);
  expect(bad, what).toEqual([]);
}

describe.skipIf(!CHROMIUM)('published site in Chromium', () => {
  it('navigation: sidebar, previous/next, sections, variant switcher', async () => {
    const { ctx, p } = await visit(base);
    expect(await p.locator('main h1').textContent()).toBe('Getting Started');
    await p.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Every Block' }).click();
    await p.waitForURL(`${base}/every-block`);
    await p.getByRole('link', { name: '← Getting Started' }).click();
    await p.waitForURL(`${base}/getting-started`);
    await p.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'API' }).click();
    expect(await p.locator('main').textContent()).toContain('The v2 reference.');
    await p.getByRole('navigation', { name: 'Variants' }).getByRole('link', { name: 'API v1' }).click();
    await p.waitForURL(`${base}/api/api-v1`);
    expect(await p.locator('main').textContent()).toContain('The v1 reference.');
    await ctx.close();
  });

  it('search with the keyboard, results lead to the page', async () => {
    const { ctx, p } = await visit(base);
    await p.getByRole('searchbox', { name: 'Search this site' }).fill('gadget');
    await p.keyboard.press('Enter');
    await p.waitForURL(/\/~\/search\?q=gadget/);
    expect(await p.getByRole('status').textContent()).toContain('1 result');
    await noSeriousViolations(p, 'search results');
    await p.locator('.results').getByRole('link', { name: 'Getting Started' }).first().click();
    await p.waitForURL(`${base}/getting-started`);
    await ctx.close();
  });

  it('light/dark toggle persists across pages', async () => {
    const { ctx, p } = await visit(base);
    expect(await p.locator('html').getAttribute('data-theme')).toBe('auto');
    await p.getByRole('button', { name: 'Switch to dark mode' }).click();
    await p.waitForURL(base);
    expect(await p.locator('html').getAttribute('data-theme')).toBe('dark');
    await p.goto(`${base}/every-block`);
    expect(await p.locator('html').getAttribute('data-theme')).toBe('dark');
    await ctx.close();
  });

  it('share link: the key becomes a cookie, the address loses it; without it, 404', async () => {
    const { ctx, p, res } = await visit(`${shared.url}?share=${shared.key}`);
    expect(res.status()).toBe(200);
    expect(p.url()).toBe(shared.url);
    expect((await p.reload()).status()).toBe(200);
    const other = await visit(shared.url);
    expect(other.res.status()).toBe(404);
    await Promise.all([ctx.close(), other.ctx.close()]);
  });

  it('adaptive content: two visitors, two views', async () => {
    const admin = await s.api('POST', `/v1/orgs/${(await s.api('GET', '/v1/orgs')).body.items[0].id}/ping`);
    const a = await visit(`${adaptive}?jwt_token=${admin.body.gitbookVisitorClaims}`);
    const b = await visit(adaptive);
    const pages = async (p: any) => p.getByRole('navigation', { name: 'Pages' }).getByRole('link').allTextContents();
    expect(await pages(a.p)).toEqual(['Getting Started', 'Every Block', 'Admin Corner']);
    expect(await pages(b.p)).toEqual(['Getting Started', 'Every Block']);
    await Promise.all([a.ctx.close(), b.ctx.close()]);
  });

  it('a page with every block kind renders (screenshot kept in test-artifacts/); accessibility of home, content page and 404', async () => {
    const { ctx, p } = await visit(`${base}/every-block`);
    expect(await p.locator('.hint-info').textContent()).toContain('A hint.');
    expect(await p.locator('pre.shiki').count()).toBe(1);
    expect(await p.locator('table td').allTextContents()).toEqual(['a', '1']);
    await p.getByText('More').click();
    expect(await p.getByText('Hidden detail.').isVisible()).toBe(true);
    mkdirSync(artifacts, { recursive: true });
    await p.screenshot({ path: join(artifacts, 'published-page.png'), fullPage: true });
    expect(existsSync(join(artifacts, 'published-page.png'))).toBe(true);
    await noSeriousViolations(p, 'content page');
    await p.goto(base);
    await noSeriousViolations(p, 'home page');
    const nf = await p.goto(`${base}/nowhere`);
    expect(nf.status()).toBe(404);
    await noSeriousViolations(p, '404 page');
    await ctx.close();
  });
});
