import { markBlocks, remarkBlocks } from './blocks.js';
import { highlightCode, type CodeThemes } from './highlight.js';
import { color } from './html.js';

// Heading anchors as the search index makes them (src/search/indexes.ts), so a result's anchor lands.
const anchorOf = (t: string) =>
  t
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'section';

// A page's markdown to HTML: remark (CommonMark + GFM: tables, task lists, strikethrough,
// autolinks, footnotes) -> rehype -> rehype-sanitize (GitHub's schema: raw HTML is dropped
// before it, and no script, event handler, style or `javascript:` URL survives it) -> links and
// images resolved to site URLs, heading anchors, code highlighted (shiki) -> HTML. Everything
// added after sanitizing is made here from safe values. The libraries load on the first render.

export type LinkTarget = { href: string } | { broken: true } | undefined;

export interface RenderOptions {
  /** What a link's URL leads to (undefined: leave the URL as written). */
  link(url: string): LinkTarget;
  /** The URL an image is loaded from (undefined: as written). */
  image(url: string): string | undefined;
  /** Links out of the site open in a new tab. */
  externalBlank?: boolean;
  /**
   * How a broken link shows: `text` (a published site: its words, plainly) or `warn` (a
   * preview for the people editing: a visible warning style, titled "Broken link").
   */
  broken?: 'text' | 'warn';
  /** The code themes (`styling.codeTheme.default`); undefined: the default ones. */
  codeThemes?: CodeThemes;
}

export interface Heading {
  depth: number;
  text: string;
  id: string;
}

let pipeline:
  | Promise<{ unified: any; remarkParse: any; remarkGfm: any; remarkRehype: any; rehypeSanitize: any; rehypeStringify: any; schema: any }>
  | undefined;

function load() {
  pipeline ??= (async () => {
    const [{ unified }, remarkParse, remarkGfm, remarkRehype, rehypeSanitize, rehypeStringify] = await Promise.all([
      import('unified'),
      import('remark-parse'),
      import('remark-gfm'),
      import('remark-rehype'),
      import('rehype-sanitize'),
      import('rehype-stringify'),
    ]);
    const base = rehypeSanitize.defaultSchema;
    const schema = {
      ...base,
      // figure/figcaption come only from the block markers (raw HTML never reaches the tree).
      tagNames: [...(base.tagNames ?? []), 'figure', 'figcaption'],
      attributes: {
        ...base.attributes,
        div: [...(base.attributes?.div ?? []), ['className', 'hint', 'hint-info', 'hint-success', 'hint-warning', 'hint-danger', 'tabs', 'embed']],
        details: [['className', 'tab']],
      },
    };
    return {
      unified,
      remarkParse: remarkParse.default,
      remarkGfm: remarkGfm.default,
      remarkRehype: remarkRehype.default,
      rehypeSanitize: rehypeSanitize.default,
      rehypeStringify: rehypeStringify.default,
      schema,
    };
  })();
  return pipeline;
}

type El = { type: string; tagName?: string; properties?: Record<string, any>; children?: El[]; value?: string };

const textOf = (n: El): string => (n.type === 'text' ? (n.value ?? '') : (n.children ?? []).map(textOf).join(''));

function walk(n: El, fn: (n: El, parent: El | undefined, index: number) => void, parent?: El, index = 0) {
  fn(n, parent, index);
  (n.children ?? []).forEach((c, i) => walk(c, fn, n, i));
}

/** After sanitizing: links and images to site URLs, heading anchors, code blocks to highlight. */
function finish(opts: RenderOptions, headings: Heading[], codes: { parent: El; index: number; lang: string; code: string }[]) {
  return () => (tree: El) => {
    const taken = new Map<string, number>();
    walk(tree, (n, parent, index) => {
      if (n.type !== 'element') return;
      const p = (n.properties ??= {});
      if (n.tagName === 'a' && typeof p.href === 'string') {
        const t = opts.link(p.href);
        if (t && 'broken' in t) {
          // A link to a page or file that does not exist goes nowhere: plain words on a
          // published site, a warning in a preview.
          n.tagName = 'span';
          n.properties = opts.broken === 'warn' ? { className: ['broken-link'], title: 'Broken link' } : {};
        } else {
          if (t) p.href = t.href;
          if (opts.externalBlank && /^https?:/i.test(p.href)) Object.assign(p, { target: '_blank', rel: ['noopener', 'noreferrer'] });
        }
      } else if (n.tagName === 'table' && parent) {
        // Wide tables scroll in their own box (focusable, so the keyboard can scroll it), not the page.
        parent.children![index] = { type: 'element', tagName: 'div', properties: { className: ['table-wrap'], tabIndex: 0 }, children: [n] };
      } else if (n.tagName === 'input' && p.type === 'checkbox') {
        // A task list's checkbox (disabled, GFM) says what it means to screen readers too.
        p.ariaLabel = p.checked ? 'Done' : 'Not done';
      } else if (n.tagName === 'img' && typeof p.src === 'string') {
        const src = opts.image(p.src);
        if (src) p.src = src;
        p.loading = 'lazy';
      } else if (/^h[1-6]$/.test(n.tagName!)) {
        const text = textOf(n).trim();
        const base = anchorOf(text);
        const seen = taken.get(base) ?? 0;
        taken.set(base, seen + 1);
        const id = seen ? `${base}-${seen}` : base;
        p.id = id;
        headings.push({ depth: Number(n.tagName![1]), text, id });
      } else if (n.tagName === 'pre' && parent && n.children?.[0]?.tagName === 'code') {
        const code = n.children[0]!;
        const cls = (code.properties?.className ?? []) as string[];
        const lang = cls.find((c) => c.startsWith('language-'))?.slice(9) ?? '';
        codes.push({ parent, index, lang, code: textOf(code) });
      }
    });
  };
}

export async function renderMarkdown(markdown: string, opts: RenderOptions): Promise<{ html: string; headings: Heading[] }> {
  const p = await load();
  const { text, nonce } = markBlocks(markdown);
  const headings: Heading[] = [];
  const codes: { parent: El; index: number; lang: string; code: string }[] = [];
  const processor = p
    .unified()
    .use(p.remarkParse)
    .use(p.remarkGfm)
    .use(remarkBlocks(nonce))
    .use(p.remarkRehype)
    .use(p.rehypeSanitize, p.schema)
    .use(finish(opts, headings, codes));
  const tree = await processor.run(processor.parse(text));
  // Highlighted code replaces its <pre>: shiki's output, built from the code as text. Every code
  // block gets a head with its language (the script adds a copy button there) and scrolls in its
  // own box (focusable for the keyboard).
  for (const c of codes) {
    const lit = await highlightCode(c.code, c.lang, opts.codeThemes);
    const pre = (lit?.pre as El | undefined) ?? c.parent.children![c.index]!;
    (pre.properties ??= {}).tabIndex = 0;
    const label = c.lang
      ? [{ type: 'element', tagName: 'span', properties: { className: ['lang'] }, children: [{ type: 'text', value: c.lang }] }]
      : [{ type: 'element', tagName: 'span', properties: {}, children: [] }];
    const head: El = { type: 'element', tagName: 'div', properties: { className: ['code-head'] }, children: label };
    // A chosen code theme brings its own background and text color (CSS variables on the block).
    const k = lit?.colors;
    const style = k
      ? `--cb-l:${color(k.light.bg, '#ffffff')};--cf-l:${color(k.light.fg, '#000000')};--cb-d:${color(k.dark.bg, '#000000')};--cf-d:${color(k.dark.fg, '#ffffff')}`
      : undefined;
    c.parent.children![c.index] = { type: 'element', tagName: 'div', properties: { className: ['code'], ...(style ? { style } : {}) }, children: [head, pre] };
  }
  const html = p.unified().use(p.rehypeStringify).stringify(tree);
  return { html, headings };
}
