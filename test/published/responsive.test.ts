import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/kernel/root.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, page as pageChange, spaceWith } from './fixture.js';

// A published site at phone (390 px) and desktop (1280 px) widths in Debian's Chromium (driven
// by playwright-core, never a browser download): no horizontal page scroll, the menu button,
// sticky sidebar and outline, copy buttons, tabs, disclosure arrows, the system's dark mode,
// the page whole without script, and axe-core on home, a content page, search and 404.
// Skipped, saying why, only when no Chromium is found.

const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));
if (!CHROMIUM) console.warn('responsive browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');

const LONG_LINE = `const url = "https://example.com/${'very-long-segment/'.repeat(30)}"; // ${'x'.repeat(200)}`;
const WIDE = `A page with a wide table, a long code line and a long URL: https://example.com/${'averyveryverylongwordwithoutanybreak'.repeat(6)}

| ${Array.from({ length: 12 }, (_, i) => `Column number ${i}`).join(' | ')} |
| ${Array.from({ length: 12 }, () => '---').join(' | ')} |
| ${Array.from({ length: 12 }, (_, i) => `a fairly long cell value ${i}`).join(' | ')} |

\`\`\`js
${LONG_LINE}
\`\`\`

{% tabs %}
{% tab title="npm" %}
npm install gadget
{% endtab %}
{% tab title="yarn" %}
yarn add gadget
{% endtab %}
{% endtabs %}

${Array.from({ length: 8 }, (_, i) => `## Section ${i + 1}\n\n${'Some words to read in this section. '.repeat(40)}`).join('\n\n')}
`;

let s: TestServer;
let browser: any;
let base: string;
let sectioned: string;
const artifacts = join(packageRoot(), 'test-artifacts');
const WIDTHS = [390, 1280] as const;

beforeAll(async () => {
  if (!CHROMIUM) return;
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  s = await startServer();
  const call = api(s);
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  const guides = await spaceWith(s, org, 'Handbook', [
    pageChange('home', 'Welcome', 'Start here. See [a missing page](./missing.md).'),
    pageChange('wide', 'Wide Things', WIDE),
    pageChange('ref', 'Reference', 'The reference.'),
    pageChange('ref1', 'Endpoints', 'All endpoints.', { into: 'ref' }),
    pageChange('ref2', 'Errors', 'All errors.', { into: 'ref' }),
  ]);
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Responsive Docs', spaces: [guides.space.id] });
  const o = `/v1/orgs/${org}/sites/${site.id}`;
  const c = await call('GET', `${o}/customization`);
  // A header link, so the narrow header has something to move into the menu.
  c.header.links = [{ title: 'Status', to: { kind: 'url', url: 'https://status.example' }, links: [] }];
  await call('PUT', `${o}/customization`, c);
  base = (await call('POST', `${o}/publish`)).urls.published;
  // A site of sections with two variants in one (the sections bar and the variant switcher).
  const v1 = await spaceWith(s, org, 'API version one with a long title', [pageChange('a', 'About', 'Version one.')]);
  const v2 = await spaceWith(s, org, 'API version two with a long title', [pageChange('a', 'About', 'Version two.')]);
  const multi = await call('POST', `/v1/orgs/${org}/sites`, { title: 'A Site With A Rather Long Title For A Phone' });
  const m = `/v1/orgs/${org}/sites/${multi.id}`;
  await call('POST', `${m}/sections`, { spaceId: guides.space.id, title: 'Handbook for everyone' });
  const apiSection = await call('POST', `${m}/sections`, { spaceId: v1.space.id, title: 'API reference' });
  await call('POST', `${m}/site-spaces`, { spaceId: v2.space.id, sectionId: apiSection.id });
  for (const t of ['Changelog', 'Tutorials', 'Integrations']) await call('POST', `${m}/sections`, { spaceId: v1.space.id, title: t });
  sectioned = (await call('POST', `${m}/publish`)).urls.published;
  mkdirSync(artifacts, { recursive: true });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await s?.stop();
});

async function open(width: number, path = '', opts: Record<string, unknown> = {}) {
  const ctx = await browser.newContext({ viewport: { width, height: 800 }, ...opts });
  const p = await ctx.newPage();
  const res = await p.goto(path.startsWith('http') ? path : base + path);
  return { ctx, p, res };
}

const overflow = (p: any) => p.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));

async function axe(p: any, what: string) {
  const AxeBuilder = ((await import('@axe-core/playwright')) as any).default;
  const r = await new AxeBuilder({ page: p }).analyze();
  return r.violations.map((v: any) => `${what}: ${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n: any) => n.target.join(' ')).join(', ')})`);
}

describe.skipIf(!CHROMIUM)('published site at 390 and 1280 px', () => {
  it('no horizontal page scroll on any page (wide tables and code scroll in their own box), with and without script', async () => {
    for (const width of [...WIDTHS, 768]) {
      for (const javaScriptEnabled of [true, false]) {
        for (const path of ['', '/wide-things', '/~/search?q=section', '/nowhere', sectioned, `${sectioned}/api-reference`]) {
          const { ctx, p } = await open(width, path, { javaScriptEnabled });
          const { scroll, inner } = await overflow(p);
          expect(scroll, `${path || '/'} at ${width}px, script ${javaScriptEnabled}`).toBeLessThanOrEqual(inner);
          if (path === `${sectioned}/api-reference` && width === 390 && javaScriptEnabled)
            await p.screenshot({ path: join(artifacts, 'published-sections-390.png') });
          if (path === '/wide-things') {
            // The table and the code do scroll, inside their boxes.
            const boxes = await p.evaluate(() => [...document.querySelectorAll('.table-wrap, .code pre')].map((e) => e.scrollWidth > e.clientWidth));
            expect(boxes).toEqual([true, true]);
            if (javaScriptEnabled) await p.waitForTimeout(300);
            if (javaScriptEnabled) await p.screenshot({ path: join(artifacts, `published-wide-${width}.png`), fullPage: false });
          }
          await ctx.close();
        }
      }
    }
  }, 120_000);

  it('390 px: one-row header, content first, the menu button reveals the navigation (Escape closes it)', async () => {
    const { ctx, p } = await open(390, '/wide-things');
    const header = await p.locator('header.top').boundingBox();
    expect(header.height).toBeLessThanOrEqual(60);
    const nav = p.getByRole('navigation', { name: 'Pages' });
    expect(await nav.isVisible()).toBe(false);
    const menu = p.getByRole('button', { name: 'Menu' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => nav.getByRole('link', { name: 'Welcome' }).isVisible()).toBe(true);
    // The header's links moved into the menu.
    expect(await p.getByRole('navigation', { name: 'Site links' }).getByRole('link', { name: 'Status' }).isVisible()).toBe(true);
    await p.waitForTimeout(300);
    await p.screenshot({ path: join(artifacts, 'published-menu-390.png') });
    await p.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await ctx.close();
    // Without script: no menu button, the page tree after the content, reachable.
    const bare = await open(390, '/wide-things', { javaScriptEnabled: false });
    expect(await bare.p.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    const [main, side] = await Promise.all([bare.p.locator('main').boundingBox(), bare.p.locator('aside.sidebar').boundingBox()]);
    expect(side.y).toBeGreaterThan(main.y + main.height - 1);
    await bare.p.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Errors' }).click();
    await bare.p.waitForURL(`${base}/reference/errors`);
    await bare.ctx.close();
  });

  it('1280 px: sidebar and outline stay in view after scrolling; an #anchor lands below the sticky header; the outline follows', async () => {
    const { ctx, p } = await open(1280, '/wide-things');
    await p.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await p.waitForTimeout(100);
    const headerBottom = (await p.locator('header.top').boundingBox()).y + (await p.locator('header.top').boundingBox()).height;
    for (const name of ['Pages', 'On this page']) {
      const box = await p.getByRole('navigation', { name }).boundingBox();
      expect(box.y, name).toBeGreaterThanOrEqual(headerBottom - 1);
      expect(box.y, name).toBeLessThan(headerBottom + 40);
    }
    await p.getByRole('navigation', { name: 'On this page' }).getByRole('link', { name: 'Section 3' }).click();
    await p.waitForURL(/#section-3$/);
    await p.waitForTimeout(150);
    const h = await p.locator('#section-3').boundingBox();
    expect(h.y).toBeGreaterThanOrEqual(headerBottom);
    expect(h.y).toBeLessThan(headerBottom + 60);
    await expect.poll(() => p.locator('aside.outline a[aria-current]').textContent()).toBe('Section 3');
    await p.screenshot({ path: join(artifacts, 'published-wide-1280-scrolled.png') });
    await ctx.close();
  });

  it('the copy button puts the code on the clipboard; the language is labelled', async () => {
    const { ctx, p } = await open(1280, '/wide-things');
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(base).origin });
    expect(await p.locator('.code .lang').textContent()).toBe('js');
    await p.getByRole('button', { name: 'Copy code' }).click();
    await expect.poll(() => p.getByRole('button', { name: 'Copy code' }).textContent()).toBe('Copied');
    expect(await p.evaluate(() => navigator.clipboard.readText())).toBe(LONG_LINE);
    await ctx.close();
  });

  it('"Copy page" puts the page\'s markdown on the clipboard', async () => {
    const { ctx, p } = await open(1280, '/wide-things');
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(base).origin });
    await p.getByRole('button', { name: 'Copy page as Markdown' }).click();
    await expect.poll(() => p.getByRole('button', { name: 'Copy page as Markdown' }).textContent()).toBe('Copied');
    const copied = await p.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^# Wide Things\n/);
    expect(copied).toContain(LONG_LINE);
    await ctx.close();
  });

  it('tabs switch; disclosure arrows open and close branches (aria-expanded)', async () => {
    const { ctx, p } = await open(1280, '/wide-things');
    const yarn = p.getByRole('tab', { name: 'yarn' });
    expect(await p.getByRole('tab', { name: 'npm' }).getAttribute('aria-selected')).toBe('true');
    expect(await p.getByText('yarn add gadget').isVisible()).toBe(false);
    await yarn.click();
    expect(await yarn.getAttribute('aria-selected')).toBe('true');
    expect(await p.getByText('yarn add gadget').isVisible()).toBe(true);
    expect(await p.getByText('npm install gadget').isVisible()).toBe(false);
    await p.keyboard.press('ArrowLeft');
    expect(await p.getByText('npm install gadget').isVisible()).toBe(true);
    const nav = p.getByRole('navigation', { name: 'Pages' });
    const arrow = nav.getByRole('button', { name: 'Reference: subpages' });
    expect(await arrow.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.getByRole('link', { name: 'Endpoints' }).isVisible()).toBe(false);
    await arrow.click();
    expect(await arrow.getAttribute('aria-expanded')).toBe('true');
    expect(await nav.getByRole('link', { name: 'Endpoints' }).isVisible()).toBe(true);
    await arrow.click();
    expect(await arrow.getAttribute('aria-expanded')).toBe('false');
    await ctx.close();
    // On a page of the branch, the branch is open.
    const inside = await open(1280, '/reference/errors');
    expect(await inside.p.getByRole('button', { name: 'Reference: subpages' }).getAttribute('aria-expanded')).toBe('true');
    await inside.ctx.close();
  });

  it('follows prefers-color-scheme; the toggle overrides it and is remembered', async () => {
    const bg = (p: any) => p.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const { ctx, p } = await open(1280, '', { colorScheme: 'dark' });
    expect(await bg(p)).toBe('rgb(17, 18, 20)');
    await p.screenshot({ path: join(artifacts, 'published-dark-1280.png') });
    await p.emulateMedia({ colorScheme: 'light' });
    expect(await bg(p)).toBe('rgb(255, 255, 255)');
    await p.emulateMedia({ colorScheme: 'dark' });
    await p.getByRole('button', { name: 'Switch to light mode' }).click();
    expect(await bg(p)).toBe('rgb(255, 255, 255)');
    await p.goto(`${base}/wide-things`);
    expect(await p.locator('html').getAttribute('data-theme')).toBe('light');
    expect(await bg(p)).toBe('rgb(255, 255, 255)');
    await ctx.close();
  });

  it('axe-core: home, a content page, search and 404 at both widths, in both themes', async () => {
    const found: string[] = [];
    for (const width of WIDTHS) {
      for (const colorScheme of ['light', 'dark']) {
        for (const path of ['', '/wide-things', '/~/search?q=section', '/nowhere']) {
          const { ctx, p } = await open(width, path, { colorScheme });
          found.push(...(await axe(p, `${path || '/'} ${width}px ${colorScheme}`)));
          await ctx.close();
        }
      }
    }
    if (found.length) console.log(`axe violations:\n${found.join('\n')}`);
    expect(found).toEqual([]);
  }, 240_000);
});
