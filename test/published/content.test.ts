import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { all, api, attrOf, byClass, byTag, get, mainOf, page, spaceWith, textOf } from './fixture.js';

// What a page's markdown becomes: GFM, highlighted code, links between pages, files and images,
// GitBook's blocks, and nothing a page could use to run script on the site.

let s: TestServer;
let base: string;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const EVERY_BLOCK = `Intro with **bold**, ~~gone~~ and \`code\`.

| Name | Value |
| ---- | ----- |
| a    | 1     |

- [x] done
- [ ] todo

\`\`\`ts
const answer: number = 42;
\`\`\`

\`\`\`nosuchlanguage
plain text stays
\`\`\`

See [the setup](./setup.md), [its install section](./setup.md#install), [the notes](./notes.txt) and [nothing](./missing.md).

![diagram](./diagram.png)

{% hint style="warning" %}
Careful **now**.
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
`;

const ATTACK = `<script>alert(1)</script>

<img src="x" onerror="alert(2)">

[click](javascript:alert(3)) and <a href="javascript:alert(4)">raw</a>

<iframe src="https://evil.example"></iframe><style>body{display:none}</style>

![x](javascript:alert(5))
`;

beforeAll(async () => {
  s = await startServer();
  const call = api(s);
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  const sp = await spaceWith(s, org, 'Content', [
    {
      operation: 'insert_files',
      files: [
        { name: 'notes.txt', ref: 'notes', contentType: 'text/plain', base64: Buffer.from('the notes').toString('base64') },
        { name: 'diagram.png', ref: 'diagram', contentType: 'image/png', base64: PNG.toString('base64') },
      ],
    },
    page('every', 'Every Block', EVERY_BLOCK),
    page('setup', 'Setup', 'Set up.\n\n## Install\n\nHere.'),
    page('attack', 'Attack', ATTACK),
  ]);
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Content Site', spaces: [sp.space.id] });
  base = (await call('POST', `/v1/orgs/${org}/sites/${site.id}/publish`)).urls.published;
}, 60_000);
afterAll(() => s?.stop());

describe('page content', () => {
  it('renders GFM: tables, task lists, strikethrough, inline code', async () => {
    const main = mainOf((await get(s, `${base}/every-block`)).doc);
    expect(byTag(main, 'table')).toHaveLength(1);
    expect(byTag(main, 'td').map(textOf)).toEqual(['a', '1']);
    expect(byTag(main, 'input').map((i) => [attrOf(i, 'type'), attrOf(i, 'checked') !== undefined])).toEqual([
      ['checkbox', true],
      ['checkbox', false],
    ]);
    expect(byTag(main, 'del').map(textOf)).toEqual(['gone']);
    expect(byTag(main, 'strong').map(textOf)).toContain('bold');
  });

  it('highlights code blocks with shiki, in light and dark; unknown languages stay plain', async () => {
    const main = mainOf((await get(s, `${base}/every-block`)).doc);
    const [ts, plain] = byTag(main, 'pre');
    expect(attrOf(ts, 'class')).toContain('shiki');
    expect(textOf(ts)).toContain('const answer: number = 42;');
    const styled = all(ts, (n) => n.tagName === 'span' && /--shiki-light:#[0-9A-Fa-f]+;--shiki-dark:#/.test(attrOf(n, 'style') ?? ''));
    expect(styled.length).toBeGreaterThan(3);
    expect(attrOf(plain, 'class')).toBeUndefined();
    expect(textOf(plain)).toContain('plain text stays');
  });

  it('links between pages go to site URLs, files to signed URLs that download, broken links are plain text', async () => {
    const main = mainOf((await get(s, `${base}/every-block`)).doc);
    const a = Object.fromEntries(byTag(main, 'a').map((x) => [textOf(x), attrOf(x, 'href')]));
    expect(a['the setup']).toBe(`${new URL(base).pathname}/setup`);
    expect(a['its install section']).toBe(`${new URL(base).pathname}/setup#install`);
    expect(a['the notes']).toMatch(new RegExp(`^${s.url}/files/`));
    expect(await (await fetch(a['the notes']!)).text()).toBe('the notes');
    // A published site shows a broken link's words, plainly (the warning style is for previews).
    expect(a.nothing).toBeUndefined();
    expect(textOf(main)).toContain('and nothing.');
    expect(byClass(main, 'broken-link')).toEqual([]);
    const img = byTag(main, 'img')[0];
    expect(attrOf(img, 'alt')).toBe('diagram');
    const bytes = Buffer.from(await (await fetch(attrOf(img, 'src'))).arrayBuffer());
    expect(bytes.equals(PNG)).toBe(true);
    // The anchor a link names exists on the target page.
    expect(byTag(mainOf((await get(s, `${base}/setup`)).doc), 'h2').map((h) => attrOf(h, 'id'))).toEqual(['install']);
  });

  it("renders GitBook's hints, tabs and expandables", async () => {
    const main = mainOf((await get(s, `${base}/every-block`)).doc);
    const hint = byClass(main, 'hint-warning')[0];
    expect(textOf(hint).trim()).toBe('Careful now.');
    expect(byTag(hint, 'strong').map(textOf)).toEqual(['now']);
    const tabs = byClass(byClass(main, 'tabs')[0], 'tab');
    expect(tabs.map((t) => textOf(byTag(t, 'summary')[0]))).toEqual(['npm', 'yarn']);
    expect(textOf(tabs[1])).toContain('yarn add');
    const more = byTag(main, 'details').find((d) => !(attrOf(d, 'class') ?? '').includes('tab'));
    expect(textOf(byTag(more, 'summary')[0])).toBe('More');
    expect(textOf(more)).toContain('Hidden detail.');
  });

  it("GitBook's images with captions become figures; embeds a link card (nothing framed); their HTML is not let through", async () => {
    const { renderMarkdown } = await import('../../src/published/render/markdown.js');
    const opts = { link: () => undefined, image: (u: string) => (u === 'diagram.png' ? '/files/diagram' : undefined) };
    const md = [
      '<figure><img src="diagram.png" alt="A [diagram]"><figcaption><p>The <strong>whole</strong> flow</p></figcaption></figure>',
      '',
      '<figure><img src="x.png" alt="" onerror="alert(1)"></figure>',
      '',
      '{% embed url="https://www.youtube.com/watch?v=abc" %}',
      'A video.',
      '{% endembed %}',
      '',
      '{% embed url="javascript:alert(2)" %}',
    ].join('\n');
    const { html } = await renderMarkdown(md, opts);
    expect(html).toContain('<figure><p><img src="/files/diagram" alt="A [diagram]" loading="lazy"></p><figcaption>The whole flow</figcaption></figure>');
    expect(html).toContain('<figure><p><img src="x.png" alt="" loading="lazy"></p></figure>');
    expect(html).toContain('<div class="embed"><p><a href="https://www.youtube.com/watch?v=abc">https://www.youtube.com/watch?v=abc</a></p></div>');
    expect(html).toContain('A video.');
    expect(html).not.toMatch(/onerror|href="javascript:|<iframe|endembed/);
  });

  it('a page that tries to inject script renders inert', async () => {
    const r = await get(s, `${base}/attack`);
    expect(r.status).toBe(200);
    const main = mainOf(r.doc);
    // The one script is the site's own (by hash), never one from the page.
    expect(byTag(r.doc, 'script').map((x) => attrOf(x, 'src')?.replace(/\?.*/, ''))).toEqual([`${new URL(base).pathname}/~/site.js`]);
    expect(byTag(main, 'script')).toHaveLength(0);
    expect(byTag(main, 'iframe')).toHaveLength(0);
    expect(byTag(main, 'style')).toHaveLength(0);
    const attrs = all(main, () => true).flatMap((n) => n.attrs ?? []);
    expect(attrs.filter((x: any) => /^on/i.test(x.name))).toEqual([]);
    expect(attrs.filter((x: any) => /javascript:/i.test(x.value))).toEqual([]);
    // The raw HTML is dropped, not shown as text either; the markdown link keeps its text.
    expect(textOf(main)).not.toContain('alert(1)');
    expect(textOf(main)).toContain('click');
  });
});
