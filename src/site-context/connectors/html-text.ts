// A web page's readable text as markdown, for a builtin:website record
// (docs/manual/site-context.md#connections-and-records). No HTML parser is a dependency of the
// server, and a record is evidence to read, not a page to render: so a sober pass over the tags
// (headings, paragraphs, list items, line breaks, code blocks kept; scripts, styles, navigation
// chrome and comments dropped; entities decoded), not a faithful conversion.
// One pass, linear in the page's size whatever it holds: a page is up to 2 MB from anyone, so no
// backtracking regular expression runs over the page itself (`<a<a<a…` or `< < <…` must not be
// quadratic); the expressions below run over one tag's attributes, or one short text.

/** Characters of markdown read from one page, beyond what a record keeps (src/site-context/records.ts MAX_BODY_BYTES). */
const OUT_CAP = 200_000;

/** Elements whose content is left out, skipped to their closing tag. */
const DROPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'nav', 'footer', 'iframe', 'object', 'form', 'select', 'textarea']);
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'ul',
  'ol',
  'table',
  'tr',
  'blockquote',
  'dl',
  'dt',
  'dd',
  'header',
  'aside',
  'figure',
  'hr',
  'main',
  'article',
]);

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  copy: '©',
  rsquo: '’',
  lsquo: '‘',
  ldquo: '“',
  rdquo: '”',
};

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '';
    }
    return NAMED[e.toLowerCase()] ?? m;
  });
}

const squeeze = (s: string) => s.replace(/\s+/g, ' ');

/** An attribute's value in one tag's attribute text. */
function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'=<>\`]+))`, 'i').exec(attrs);
  return m ? decodeEntities(m[1] ?? m[2] ?? m[3] ?? '') : undefined;
}

/** A letter (first), or a letter, digit or '-'. */
const nameChar = (c: number, first: boolean) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (!first && ((c >= 48 && c <= 57) || c === 45));

type Token = { text: string; at: number } | { tag: string; close: boolean; attrs: string; at: number; end: number };

/** The page as text and tags, in one pass (comments dropped; a `<` that opens no tag is text). */
function* tokens(html: string): Generator<Token> {
  const n = html.length;
  let i = 0;
  let text = 0; // where the text not yet given out starts: a '<' that opens no tag stays in it
  let gt = -1; // the next '>' at or after the current '<', found once for every '<' before it
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    if (html.startsWith('<!--', lt)) {
      if (lt > text) yield { text: html.slice(text, lt), at: text };
      const end = html.indexOf('-->', lt + 4);
      if (end < 0) return;
      i = text = end + 3;
      continue;
    }
    if (gt <= lt) gt = html.indexOf('>', lt + 1);
    if (gt < 0) break;
    // The tag's name, read by hand (letters, digits, '-'; ended by a space, '/' or '>').
    let k = lt + 1;
    const close = html.charCodeAt(k) === 47; // '/'
    if (close) k++;
    const start = k;
    while (k < gt && k - start <= 31 && nameChar(html.charCodeAt(k), k === start)) k++;
    const after = html.charCodeAt(k);
    if (k === start || k - start > 31 || !(k === gt || after === 47 || after === 32 || (after >= 9 && after <= 13))) {
      i = lt + 1;
      continue;
    }
    if (lt > text) yield { text: html.slice(text, lt), at: text };
    yield { tag: html.slice(start, k).toLowerCase(), close, attrs: html.slice(k, gt), at: lt, end: gt + 1 };
    i = text = gt + 1;
  }
  if (text < n) yield { text: html.slice(text), at: text };
}

/** Where the element opened just before `from` closes (`</name`), or the page's end. */
function closing(lower: string, name: string, from: number): { inner: number; after: number } {
  const at = lower.indexOf(`</${name}`, from);
  if (at < 0) return { inner: lower.length, after: lower.length };
  const gt = lower.indexOf('>', at);
  return { inner: at, after: gt < 0 ? lower.length : gt + 1 };
}

export interface PageText {
  title?: string;
  description?: string;
  /** The readable content (of <main>, else <article>, else the whole page) as markdown. */
  body: string;
  /** Every <a href> of the page, as written. */
  links: string[];
}

/** Reads a page: its title, description, links, and its content as markdown. */
export function readPage(html: string): PageText {
  const lower = html.toLowerCase();
  let title: string | undefined;
  let description: string | undefined;
  let firstHeading: string | undefined;
  const links: string[] = [];
  // The head's title and description, and every link, over the whole page.
  const t = lower.indexOf('<title');
  if (t >= 0) {
    const open = lower.indexOf('>', t);
    const { inner } = closing(lower, 'title', open + 1);
    if (open >= 0) title = squeeze(decodeEntities(html.slice(open + 1, inner).replace(/<[^>]{0,200}>/g, ''))).trim() || undefined;
  }
  // The content: <main>, else <article>, else everything.
  let from = 0;
  let to = html.length;
  for (const name of ['main', 'article']) {
    const at = lower.indexOf(`<${name}`);
    const last = lower.lastIndexOf(`</${name}`);
    if (at >= 0 && last > at) {
      from = at;
      to = last;
      break;
    }
  }
  let out = '';
  let heading: string | undefined; // the text of the heading being read
  let skipTo = -1;
  for (const tok of tokens(html)) {
    // Links and the description from the whole page (its navigation too); the content from its part.
    if ('tag' in tok && !tok.close) {
      if (tok.tag === 'a') {
        const href = attr(tok.attrs, 'href');
        if (href) links.push(href);
      } else if (tok.tag === 'meta' && description === undefined && attr(tok.attrs, 'name')?.toLowerCase() === 'description') {
        description = squeeze(attr(tok.attrs, 'content') ?? '').trim() || undefined;
      }
    }
    // Past OUT_CAP the content is not read further (a record keeps at most 100,000 bytes of it): links only.
    if (tok.at < skipTo || tok.at < from || tok.at >= to || out.length > OUT_CAP) continue;
    if ('text' in tok) {
      const raw = tok.text.length > OUT_CAP ? tok.text.slice(0, OUT_CAP) : tok.text;
      const text = squeeze(raw.includes('&') ? decodeEntities(raw) : raw);
      out += text;
      if (heading !== undefined) heading += text;
      continue;
    }
    const { tag, close } = tok;
    if (!close && DROPPED.has(tag)) {
      skipTo = closing(lower, tag, tok.end).after;
      continue;
    }
    if (!close && tag === 'pre') {
      const { inner, after } = closing(lower, 'pre', tok.end);
      const code = decodeEntities(html.slice(tok.end, Math.min(inner, to)).replace(/<[^>]{0,200}>/g, '')).replace(/\n+$/, '');
      out += `\n\n\`\`\`\n${code}\n\`\`\`\n\n`;
      skipTo = after;
      continue;
    }
    const h = /^h([1-6])$/.exec(tag);
    if (h) {
      if (!close) {
        out += `\n\n${'#'.repeat(Number(h[1]))} `;
        heading = '';
      } else {
        if (heading !== undefined && firstHeading === undefined && h[1] === '1') firstHeading = heading.trim();
        heading = undefined;
        out += '\n\n';
      }
    } else if (tag === 'li' && !close) out += '\n- ';
    else if (tag === 'br') out += '\n';
    else if (tag === 'code') out += '`';
    else if ((tag === 'td' || tag === 'th') && close) out += ' ';
    else if (BLOCKS.has(tag)) out += '\n\n';
  }
  const body = out
    .split('\n')
    .map((l) => l.replace(/[ \t\r\f\v\u00a0]+/g, ' ').trim())
    .filter((l, i, all) => !(l === '-' && (all[i + 1] ?? '') === ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { ...(title || firstHeading ? { title: title || firstHeading } : {}), ...(description ? { description } : {}), body, links };
}

/** The page's content as markdown (readPage's body). */
export const htmlToMarkdown = (html: string) => readPage(html).body;
