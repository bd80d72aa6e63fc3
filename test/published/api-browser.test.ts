import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/kernel/root.js';
import { processingIdle } from '../../src/openapi/processor.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { petsAt } from './api-fixture.js';
import { api, page, spaceWith } from './fixture.js';

// An API reference operation page in Debian's Chromium (playwright-core) at 390 and 1280 px:
// its parameters and curl sample shown, no horizontal page scroll, axe-core clean in both
// themes, and "Test it" sending the request from the browser to the spec's server (a local
// one here, allowing CORS), while the page's CSP keeps every other origin out.

const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));
if (!CHROMIUM) console.warn('API reference browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');

let s: TestServer;
let browser: any;
let opUrl: string;
let apiServer: Server;
let other: Server;
let otherUrl: string;
const seen: { method?: string; url?: string; auth?: string }[] = [];
const artifacts = join(packageRoot(), 'test-artifacts');

const listen = (srv: Server) => new Promise<string>((r) => srv.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(srv.address() as AddressInfo).port}`)));

beforeAll(async () => {
  if (!CHROMIUM) return;
  // The spec's server: answers CORS preflights and the request, and records what it got.
  apiServer = createServer((req, res) => {
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': 'authorization, content-type',
      'access-control-allow-methods': 'GET, POST',
    };
    if (req.method === 'OPTIONS') return res.writeHead(204, cors).end();
    seen.push({ method: req.method, url: req.url, auth: req.headers.authorization });
    res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({ id: 42, name: 'Rex' }));
  });
  const apiUrl = await listen(apiServer);
  other = createServer((_req, res) => res.writeHead(200, { 'access-control-allow-origin': '*' }).end('other'));
  otherUrl = await listen(other);
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  s = await startServer();
  const call = api(s);
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  await call('PUT', `/v1/orgs/${org}/openapi/pets`, { source: { text: JSON.stringify(petsAt(`${apiUrl}/v1`)) } });
  await processingIdle(s.ctx);
  const a = await spaceWith(s, org, 'Docs', [page('a', 'Intro', 'Hello.'), page('b', 'API', '{% openapi-reference spec="pets" %}')]);
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Pets Site', spaces: [a.space.id] });
  opUrl = `${(await call('POST', `/v1/orgs/${org}/sites/${site.id}/publish`)).urls.published}/api/pets/getpet`;
  mkdirSync(artifacts, { recursive: true });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await s?.stop();
  apiServer?.close();
  other?.close();
});

async function open(width: number, opts: Record<string, unknown> = {}) {
  const ctx = await browser.newContext({ viewport: { width, height: 800 }, ...opts });
  const p = await ctx.newPage();
  const res = await p.goto(opUrl);
  return { ctx, p, res };
}

describe.skipIf(!CHROMIUM)('API reference operation page in a browser', () => {
  it('shows its parameters and a curl sample at 390 and 1280 px, without horizontal page scroll', async () => {
    for (const width of [390, 1280]) {
      for (const javaScriptEnabled of [true, false]) {
        const { ctx, p, res } = await open(width, { javaScriptEnabled });
        expect(res.status()).toBe(200);
        await expect(p.locator('main .endpoint').textContent()).resolves.toBe('GET /pets/{petId}');
        expect(await p.locator('main h3', { hasText: 'Path parameters' }).isVisible()).toBe(true);
        expect(await p.locator('main .prop code', { hasText: 'petId' }).first().isVisible()).toBe(true);
        // The first tab (curl) is the one shown.
        expect(await p.locator('main pre', { hasText: 'curl -L' }).first().isVisible()).toBe(true);
        const o = await p.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
        expect(o.scroll, `${width}px js=${javaScriptEnabled}`).toBeLessThanOrEqual(o.inner);
        if (javaScriptEnabled) await p.screenshot({ path: join(artifacts, `published-api-operation-${width}.png`), fullPage: true });
        await ctx.close();
      }
    }
  }, 120_000);

  it('axe-core: no violation at 390 and 1280 px, in both themes', async () => {
    const AxeBuilder = ((await import('@axe-core/playwright')) as any).default;
    const found: string[] = [];
    for (const width of [390, 1280]) {
      for (const colorScheme of ['light', 'dark']) {
        const { ctx, p } = await open(width, { colorScheme });
        // Open every collapsed schema and example, so their contents are checked too.
        await p.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
        const r = await new AxeBuilder({ page: p }).analyze();
        found.push(
          ...r.violations.map(
            (v: any) => `${width}px ${colorScheme}: ${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n: any) => n.target.join(' ')).join(', ')})`,
          ),
        );
        await ctx.close();
      }
    }
    if (found.length) console.log(`axe violations:\n${found.join('\n')}`);
    expect(found).toEqual([]);
  }, 120_000);

  it("Test it sends the request from the browser to the spec's server; the CSP keeps other origins out", async () => {
    const { ctx, p } = await open(1280);
    await p.fill('input[name="path:petId"]', '7');
    await p.fill('input[name="query:verbose"]', 'true');
    await p.fill('input[name="header:Authorization"]', 'Bearer secret-1');
    await p.click('form.try-it button.send');
    await expect.poll(() => p.locator('.try-result').textContent(), { timeout: 10_000 }).toContain('"name":"Rex"');
    expect(await p.locator('.try-result').textContent()).toMatch(/^200 OK/);
    expect(seen.at(-1)).toEqual({ method: 'GET', url: '/v1/pets/7?verbose=true', auth: 'Bearer secret-1' });
    // A deeper schema level loads when opened (from the same page, ?part=).
    const owner = p.locator('details[data-part$="p.owner"]').first();
    await owner.locator(':scope > summary').click();
    await expect.poll(() => owner.textContent(), { timeout: 10_000 }).toContain('address');
    // Any other origin is refused by the page's connect-src.
    const blocked = await p.evaluate(
      (u: string) =>
        fetch(u).then(
          () => 'sent',
          () => 'blocked',
        ),
      otherUrl,
    );
    expect(blocked).toBe('blocked');
    await ctx.close();
  }, 60_000);
});
