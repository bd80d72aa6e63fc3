import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'parse5';
import { startServer, type TestServer } from '../helpers/server.js';
import { all, api, attrOf, byClass, byLabel, byTag, get, links, mainOf, page, spaceWith, textOf } from './fixture.js';

// The site customization and per-site-space overrides change what is rendered: one setting at a
// time, each seen in the page.

let s: TestServer;
let call: ReturnType<typeof api>;
let o: string;
let base: string;
let ssSecond: string;
let betaPage: string;

beforeAll(async () => {
  s = await startServer();
  call = api(s);
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  const a = await spaceWith(s, org, 'First', [
    page('a', 'Alpha', 'See [example](https://example.com).\n\n```js\nconst x = "text"; // a note\nlet y = 42;\n```'),
    page('b', 'Beta', 'B.'),
  ]);
  const b = await spaceWith(s, org, 'Second', [page('c', 'Gamma', 'C.')]);
  betaPage = a.pages.Beta.id;
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Styled Site', spaces: [a.space.id, b.space.id] });
  o = `/v1/orgs/${org}/sites/${site.id}`;
  ssSecond = (await call('GET', `${o}/site-spaces`)).items.find((x: any) => x.space.id === b.space.id).id;
  base = (await call('POST', `${o}/publish`)).urls.published;
}, 60_000);
afterAll(() => s?.stop());

const customize = async (change: (c: any) => void) => {
  const c = await call('GET', `${o}/customization`);
  change(c);
  await call('PUT', `${o}/customization`, c);
};
const home = async (path = '', cookie?: string) => (await get(s, base + path, cookie)).doc;
const style = (doc: any) => textOf(byTag(doc, 'style')[0]);
const htmlEl = (doc: any) => byTag(doc, 'html')[0];

describe('customization', () => {
  it('title', async () => {
    expect(textOf(byClass(await home(), 'brand')[0]).trim()).toBe('Styled Site');
    await customize((c) => (c.title = 'Renamed Docs'));
    const doc = await home();
    expect(textOf(byClass(doc, 'brand')[0]).trim()).toBe('Renamed Docs');
    expect(textOf(byTag(doc, 'title')[0])).toBe('Alpha | Renamed Docs');
  });

  it('logo (light and dark)', async () => {
    await customize((c) => (c.header.logo = { light: 'https://cdn.example/logo.png', dark: 'https://cdn.example/logo-dark.png' }));
    const imgs = byTag(byClass(await home(), 'brand')[0], 'img');
    expect(imgs.map((i) => [attrOf(i, 'class'), attrOf(i, 'src')])).toEqual([
      ['logo-light', 'https://cdn.example/logo.png'],
      ['logo-dark', 'https://cdn.example/logo-dark.png'],
    ]);
  });

  it('favicon: icon, or emoji', async () => {
    await customize((c) => (c.favicon = { icon: { light: 'https://cdn.example/fav.png', dark: 'https://cdn.example/fav-dark.png' } }));
    expect(
      attrOf(
        byTag(await home(), 'link').find((l) => attrOf(l, 'rel') === 'icon'),
        'href',
      ),
    ).toBe('https://cdn.example/fav.png');
    await customize((c) => (c.favicon = { emoji: '1f680' }));
    const href = attrOf(
      byTag(await home(), 'link').find((l) => attrOf(l, 'rel') === 'icon'),
      'href',
    );
    expect(decodeURIComponent(href)).toContain('🚀');
    // A code point past U+10FFFF is shown as written, never a failed page.
    const { emoji } = await import('../../src/published/render/page.js');
    expect([emoji('1f680'), emoji('ffffff'), emoji('🙂')]).toEqual(['🚀', 'ffffff', '🙂']);
  });

  it('primary color, light and dark; theme; font; corners', async () => {
    await customize((c) => {
      c.styling.primaryColor = { light: '#ff0000', dark: '#00ff00' };
      c.styling.theme = 'bold';
      c.styling.font = 'Merriweather';
      c.styling.corners = 'straight';
    });
    const doc = await home();
    // The colors as chosen, and for text adjusted to AA contrast where they fail it (#ff0000 on white: 4.0).
    expect(style(doc)).toMatch(/:root\{--primary:#ff0000;--link:#([0-9a-f]{6});--on-primary:#000000;--font:Merriweather, Georgia, serif;--radius:0\}/);
    const link = /:root\{--primary:#ff0000;--link:(#[0-9a-f]{6})/.exec(style(doc))![1]!;
    const { contrast } = await import('../../src/published/render/contrast.js');
    expect(contrast(link, '#f5f6f8')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(link, '#ff0000')).toBeLessThan(1.5);
    expect(style(doc)).toContain('[data-theme=dark]{--primary:#00ff00;--link:#00ff00;');
    expect(attrOf(htmlEl(doc), 'data-style')).toBe('bold');
  });

  it('styling.codeTheme (read where the customization has it): the chosen themes color the code, with their own background, tokens kept at AA contrast', async () => {
    // The API's customization does not accept the field yet: the renderer is driven directly.
    const { codeThemesOf } = await import('../../src/published/render/highlight.js');
    const { renderMarkdown } = await import('../../src/published/render/markdown.js');
    expect(codeThemesOf({})).toBeUndefined();
    expect(codeThemesOf({ codeTheme: { default: { light: 'default-light', dark: 'default-dark' } } })).toBeUndefined();
    const themes = codeThemesOf({ codeTheme: { default: { light: 'solarized-light', dark: 'dracula' }, openapi: {} } });
    expect(themes).toEqual({ light: 'solarized-light', dark: 'dracula' });
    const render = async (codeThemes?: any) =>
      parse(
        `<body>${(await renderMarkdown('```js\nconst x = "text"; // a note\nlet y = 42;\n```', { link: () => undefined, image: () => undefined, codeThemes })).html}</body>`,
      );
    const code = byClass(await render(themes), 'code')[0];
    const vars = Object.fromEntries((attrOf(code, 'style') as string).split(';').map((d) => d.split(':')));
    expect(vars['--cb-l']!.toLowerCase()).toBe('#fdf6e3');
    expect(vars['--cb-d']!.toLowerCase()).toBe('#282a36');
    const { contrast } = await import('../../src/published/render/contrast.js');
    const tokens = all(code, (n) => n.tagName === 'span' && /--shiki-light/.test(attrOf(n, 'style') ?? '')).map((n) => attrOf(n, 'style') as string);
    expect(tokens.length).toBeGreaterThan(2);
    for (const t of tokens) {
      expect(contrast(/--shiki-light:(#[0-9a-f]+)/i.exec(t)![1]!, vars['--cb-l']!)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(/--shiki-dark:(#[0-9a-f]+)/i.exec(t)![1]!, vars['--cb-d']!)).toBeGreaterThanOrEqual(4.5);
    }
    // An unknown theme: that mode's default; both default: the default look (no style of its own).
    expect(attrOf(byClass(await render({ light: 'no-such-theme', dark: 'github-dark-default' }), 'code')[0], 'style')).toBeUndefined();
  });

  it('header links and footer (groups, copyright)', async () => {
    await customize((c) => {
      c.header.links = [
        { title: 'Status', to: { kind: 'url', url: 'https://status.example' }, links: [] },
        { title: 'More', to: null, links: [{ title: 'Blog', to: { kind: 'url', url: 'https://blog.example' } }] },
        { title: 'Beta page', to: { kind: 'page', page: betaPage }, links: [] },
      ];
      c.footer = { groups: [{ title: 'Company', links: [{ title: 'About', to: { kind: 'url', url: 'https://example.com/about' } }] }], copyright: '© Acme' };
    });
    const doc = await home();
    expect(links(byLabel(doc, 'Header links'))).toEqual([
      { text: 'Status', href: 'https://status.example' },
      { text: 'Blog', href: 'https://blog.example' },
      { text: 'Beta page', href: `${new URL(base).pathname}/beta` },
    ]);
    expect(textOf(byTag(byLabel(doc, 'Header links'), 'summary')[0])).toBe('More');
    const footer = byTag(doc, 'footer')[0];
    expect(textOf(footer)).toContain('Company');
    expect(links(footer)).toEqual([{ text: 'About', href: 'https://example.com/about' }]);
    expect(textOf(byClass(footer, 'copyright')[0])).toBe('© Acme');
  });

  it("light/dark: the system's preference by default, the toggle (a cookie), and no toggle when not toggeable", async () => {
    expect(attrOf(htmlEl(await home()), 'data-theme')).toBe('auto');
    const toggle = await get(s, `${base}/~/theme?set=dark&back=${encodeURIComponent(new URL(base).pathname + '/beta')}`);
    expect(toggle.status).toBe(303);
    expect(toggle.headers.get('location')).toBe(`${new URL(base).pathname}/beta`);
    const cookie = toggle.headers.get('set-cookie')!.split(';')[0]!;
    expect(attrOf(htmlEl(await home('', cookie)), 'data-theme')).toBe('dark');
    // The way back stays on the site.
    expect((await get(s, `${base}/~/theme?set=dark&back=https://evil.example`)).headers.get('location')).toBe(new URL(base).pathname);
    await customize((c) => (c.themes = { default: 'dark', toggeable: false }));
    const doc = await home('', cookie.replace('dark', 'light'));
    expect(attrOf(htmlEl(doc), 'data-theme')).toBe('dark');
    expect(byClass(doc, 'toggle')).toHaveLength(0);
  });

  it('pagination and external link target', async () => {
    expect(byLabel(await home(), 'Previous and next')).toBeDefined();
    await customize((c) => {
      c.pagination = { enabled: false };
      c.externalLinks = { target: 'blank' };
    });
    const doc = await home();
    expect(byLabel(doc, 'Previous and next')).toBeUndefined();
    const ext = byTag(mainOf(doc), 'a').find((a) => textOf(a) === 'example');
    expect([attrOf(ext, 'target'), attrOf(ext, 'rel')]).toEqual(['_blank', 'noopener noreferrer']);
  });

  it('a site space override applies to that site space only, and resets', async () => {
    await call('PATCH', `${o}/site-spaces/${ssSecond}/customization`, {
      title: 'Second Look',
      styling: { primaryColor: { light: '#123456', dark: '#654321' } },
    });
    const second = await home('/second');
    expect(textOf(byClass(second, 'brand')[0]).trim()).toBe('Second Look');
    expect(style(second)).toContain('--primary:#123456');
    const first = await home();
    expect(textOf(byClass(first, 'brand')[0]).trim()).toBe('Renamed Docs');
    expect(style(first)).toContain('--primary:#ff0000');
    await call('DELETE', `${o}/site-spaces/${ssSecond}/customization`);
    expect(textOf(byClass(await home('/second'), 'brand')[0]).trim()).toBe('Renamed Docs');
  });
});
