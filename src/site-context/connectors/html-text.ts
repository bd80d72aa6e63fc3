// A web page's readable text as markdown, for a builtin:website record
// (docs/manual/site-context.md#connections-and-records). No HTML parser is a dependency of the
// server, and a record is evidence to read, not a page to render: so a sober pass over the tags
// (headings, paragraphs, list items, line breaks, code blocks kept; scripts, styles, navigation
// chrome and comments dropped; entities decoded), not a faithful conversion.

const DROPPED = ['script', 'style', 'noscript', 'template', 'svg', 'head', 'nav', 'footer', 'iframe', 'object', 'form'];

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', mdash: '—', ndash: '–', hellip: '…', copy: '©', rsquo: '’', lsquo: '‘', ldquo: '“', rdquo: '”' };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '';
    }
    return NAMED[e.toLowerCase()] ?? m;
  });
}

const text = (html: string) => decodeEntities(html.replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();

/** The page's title: its <title>, else its first <h1>, else undefined. */
export function titleOf(html: string): string | undefined {
  const t = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
  const s = t === undefined ? '' : text(t);
  return s || undefined;
}

/** The page's meta description, if it has one. */
export function descriptionOf(html: string): string | undefined {
  const tag = /<meta\b[^>]*\bname\s*=\s*["']?description["']?[^>]*>/i.exec(html)?.[0];
  const content = tag && /\bcontent\s*=\s*("([^"]*)"|'([^']*)')/i.exec(tag);
  const s = content ? text(content[2] ?? content[3] ?? '') : '';
  return s || undefined;
}

/** Every href of an <a> in the page, as written (resolved by the caller against the page's URL). */
export function linksOf(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<a\b[^>]*\bhref\s*=\s*("([^"]*)"|'([^']*)'|([^\s>"']+))/gi)) out.push(decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
  return out;
}

/** The page's readable content as markdown: its <main> (or <article>, or <body>) without the dropped parts. */
export function htmlToMarkdown(html: string): string {
  let s = html.replace(/<!--[\s\S]*?-->/g, '');
  for (const tag of DROPPED) s = s.replace(new RegExp(`<${tag}\\b[\\s\\S]*?<\\/${tag}\\s*>`, 'gi'), ' ');
  const main = /<main\b[^>]*>([\s\S]*)<\/main>/i.exec(s) ?? /<article\b[^>]*>([\s\S]*)<\/article>/i.exec(s) ?? /<body\b[^>]*>([\s\S]*)<\/body>/i.exec(s);
  if (main) s = main[1]!;
  // Code blocks first, kept as they are (their text, fenced).
  const blocks: string[] = [];
  s = s.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre>/gi, (_m, inner: string) => {
    blocks.push(decodeEntities(inner.replace(/<[^>]*>/g, '')).replace(/\n+$/, ''));
    return `\n\n\u0000${blocks.length - 1}\u0000\n\n`;
  });
  s = s
    .replace(/<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1>/gi, (_m, n: string, inner: string) => `\n\n${'#'.repeat(Number(n))} ${text(inner)}\n\n`)
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/?(p|div|section|ul|ol|table|tr|blockquote|dl|dt|dd|header|aside|figure|hr)\b[^>]*>/gi, '\n\n')
    .replace(/<\/t[dh]>/gi, ' ')
    .replace(/<code\b[^>]*>([\s\S]*?)<\/code>/gi, (_m, inner: string) => `\`${text(inner)}\``)
    .replace(/<[^>]*>/g, '');
  const lines = decodeEntities(s)
    .split('\n')
    .map((l) => l.replace(/[ \t\r\f\v\u00a0]+/g, ' ').trim());
  const out = lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^- *$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return out.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => `\`\`\`\n${blocks[Number(i)]}\n\`\`\``);
}
