import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { all, api, attrOf, byClass, byTag, get, mainOf, page, spaceWith, textOf } from './fixture.js';

// Progressive enhancement under the strict CSP, checked on the HTML (no browser): every page is
// whole without script; the one script is the site's own, served from the site, allowed by its
// hash alone; nothing inline, nothing from elsewhere.

let s: TestServer;
let base: string;

beforeAll(async () => {
  s = await startServer();
  const call = api(s);
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  const { space } = await spaceWith(s, org, 'Guide', [
    page('a', 'Alpha', '## One\n\n```ts\nconst x = 1;\n```\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n```\nplain\n```\n'),
    page('b', 'Beta', 'Beta body.'),
    page('c', 'Gamma', 'Under beta.', { into: 'b' }),
  ]);
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Script Site', spaces: [space.id] });
  base = (await call('POST', `/v1/orgs/${org}/sites/${site.id}/publish`)).urls.published;
}, 60_000);
afterAll(() => s?.stop());

const sha = (b: Buffer | string) => `sha256-${createHash('sha256').update(b).digest('base64')}`;

describe('the site script and its CSP', () => {
  it("the CSP allows exactly the site's script (by hash); the page's <script> is it, same-origin, deferred, with that integrity", async () => {
    for (const path of ['', '/beta/gamma', '/~/search?q=beta', '/nowhere']) {
      const r = await get(s, base + path);
      const csp = r.headers.get('content-security-policy')!;
      const src = /script-src ([^;]+)/.exec(csp)![1]!.trim();
      expect(src, path).toMatch(/^'sha256-[A-Za-z0-9+/=]+'$/);
      expect(csp).toContain("default-src 'none'");
      const scripts = byTag(r.doc, 'script');
      expect(scripts).toHaveLength(1);
      const [tag] = scripts;
      expect(textOf(tag)).toBe('');
      expect(attrOf(tag, 'defer')).toBe('');
      const url = new URL(attrOf(tag, 'src'), s.url);
      expect(url.origin).toBe(s.url);
      expect(url.pathname).toBe(`${new URL(base).pathname}/~/site.js`);
      expect(attrOf(tag, 'integrity')).toBe(src.slice(1, -1));
      const js = await fetch(url);
      const bytes = Buffer.from(await js.arrayBuffer());
      expect(sha(bytes)).toBe(src.slice(1, -1));
    }
  });

  it('the script is served as JavaScript, nosniff, cached a year at its versioned URL (revalidated otherwise); it asks nothing of other origins', async () => {
    const doc = (await get(s, base)).doc;
    const src = attrOf(byTag(doc, 'script')[0], 'src');
    const r = await fetch(new URL(src, s.url));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const text = await r.text();
    expect(text).not.toMatch(/https?:\/\/|XMLHttpRequest|import\(|eval\(|new Function|innerHTML|localStorage/);
    // Three requests: "Copy page" reads the page's `.md` link, when it is on this origin; an API
    // operation's deeper schema level is read from the same page (`?part=`); "Test it" sends the
    // visitor's request to the spec's server. The CSP lets a content page reach this origin
    // alone (an API operation page adds its spec's servers: test/published/api-reference.test.ts).
    // The fourth: the insights beacon, to the site's own `~/events` (beside the script's own URL).
    expect(text.match(/fetch\(/g)).toEqual(['fetch(', 'fetch(', 'fetch(', 'fetch(']);
    expect(text).toContain('const to=new URL("events",me.src).href');
    expect(text).toContain('fetch(new URL(x.dataset.part,location.href),{credentials:"same-origin"})');
    expect(text).toContain('credentials:"omit"');
    expect(text).toContain('fetch(md.href,');
    expect(text).toContain('md.origin===location.origin');
    const csp = (await get(s, base)).headers.get('content-security-policy')!;
    expect(/connect-src ([^;]+)/.exec(csp)![1]!.trim()).toBe("'self'");
    const stale = await fetch(new URL(src.replace(/\?v=.*/, '?v=old'), s.url));
    expect(stale.headers.get('cache-control')).toBe('no-cache');
    // Not a site: the same 404 as any address there.
    expect((await fetch(`${s.url}/sites/nobody/nothing/~/site.js`)).status).toBe(404);
  });

  it('no inline handler, no inline script, no javascript: URL; every resource the page loads is its own', async () => {
    for (const path of ['', '/beta/gamma', '/~/search?q=beta', '/nowhere']) {
      const { doc } = await get(s, base + path);
      const attrs = all(doc, () => true).flatMap((n) => n.attrs ?? []);
      expect(
        attrs.filter((a: any) => /^on/i.test(a.name)),
        path,
      ).toEqual([]);
      expect(
        attrs.filter((a: any) => /javascript:/i.test(a.value)),
        path,
      ).toEqual([]);
      const loads = [
        ...byTag(doc, 'script').map((n) => attrOf(n, 'src')),
        ...byTag(doc, 'link')
          .filter((n) => attrOf(n, 'rel') === 'stylesheet')
          .map((n) => attrOf(n, 'href')),
      ];
      for (const u of loads) expect(new URL(u, s.url).origin).toBe(s.url);
    }
  });

  it('whole without script: the page tree is all there (closed branches only for the script), the menu button and arrows are extras; code has its language; tables and code scroll in focusable boxes', async () => {
    const { doc } = await get(s, base);
    const side = all(doc, (n) => attrOf(n, 'aria-label') === 'Pages')[0];
    expect(byTag(side, 'a').map(textOf)).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(byClass(side, 'closed').length).toBe(1);
    expect(attrOf(byClass(doc, 'menu')[0], 'aria-controls')).toBe('nav');
    const main = mainOf(doc);
    const codes = byClass(main, 'code');
    expect(codes.map((c) => textOf(byClass(c, 'code-head')[0]))).toEqual(['ts', '']);
    expect(codes.map((c) => attrOf(byTag(c, 'pre')[0], 'tabindex'))).toEqual(['0', '0']);
    expect(attrOf(byClass(main, 'table-wrap')[0], 'tabindex')).toBe('0');
    expect(byTag(byClass(main, 'table-wrap')[0], 'table')).toHaveLength(1);
    // The page's last-updated time.
    const time = byTag(byClass(main, 'updated')[0], 'time')[0];
    expect(new Date(attrOf(time, 'datetime')).getTime()).toBeGreaterThan(0);
  });

  it('the theme follows the system unless chosen; the toggle offers both choices (CSS shows the right one)', async () => {
    const { doc } = await get(s, base);
    expect(attrOf(byTag(doc, 'html')[0], 'data-theme')).toBe('auto');
    const toggle = byClass(doc, 'toggle')[0];
    expect(byTag(toggle, 'button').map((b) => attrOf(b, 'value'))).toEqual(['dark', 'light']);
    const css = textOf(byTag(doc, 'style')[0]);
    expect(css).toContain('@media (prefers-color-scheme:dark){[data-theme=auto]{');
  });
});

describe('contrast', () => {
  it('a primary color failing AA is adjusted for text, in both themes; one that passes is kept', async () => {
    const { contrast, readable, onColor } = await import('../../src/published/render/contrast.js');
    expect(readable('#346ddb', '#ffffff')).toBe('#346ddb');
    for (const [fg, bg] of [
      ['#ffdd00', '#ffffff'],
      ['#ff0000', '#f5f6f8'],
      ['#1a1a8f', '#1b1c20'],
      ['#777', '#111214'],
    ] as const) {
      const out = readable(fg, bg);
      expect(contrast(out, bg), `${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    }
    expect(onColor('#ffdd00')).toBe('#000000');
    expect(onColor('#1a1a8f')).toBe('#ffffff');
    // Not a color: left as given (the stylesheet only takes hex colors anyway).
    expect(readable('red', '#fff')).toBe('red');
  });
});
