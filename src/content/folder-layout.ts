import { posix } from 'node:path';
import { normalizeBody } from '../documents/page-source.js';
import { extractLinks, pageDir, type Parse } from './link-refs.js';

// The folder layout of docs as Git keeps them, in the parts that need no disk: where a page's file
// is, SUMMARY.md for a tree of pages, and links in their canonical relative form. Written for
// `docs content push/pull` (commands/_lib/content-folder.ts re-exports them) and shared with
// imports (src/imports) and Git export (src/git): one converter (docs/manual/imports-and-git.md#one-converter).

export const pageFile = (path: string, hasChildren: boolean) => (hasChildren ? `${path}/README.md` : `${path}.md`);

// posix.relative's answers (a pure function of its two strings), bounded.
const relMemo = new Map<string, string>();

/**
 * The body with its page and file links in one canonical relative form: `pageOf(path)` says
 * whether a page path exists (and whether it has children), `idToPath` maps `/pages/<id>` and
 * `/files/<id>` to paths. Links that resolve to nothing are left as written.
 */
export function canonicalBody(
  parse: Parse,
  body: string,
  at: { path: string; hasChildren: boolean },
  pageOf: (path: string) => { hasChildren: boolean } | undefined,
  fileNames: Set<string>,
  idToPath: { pages: Map<string, string>; files: Map<string, string> },
  /** Where the body's links are (the server's link index, checked): then it is not parsed. */
  spans?: number[],
): string {
  const from = pageDir(at.path, at.hasChildren);
  const edits: { start: number; end: number; text: string }[] = [];
  const links = spans ? linksAt(body, spans) : extractLinks(parse, body);
  for (const l of links) {
    if (l.start === undefined) continue;
    const text = canonicalLink(l.url, from, pageOf, fileNames, idToPath);
    if (text !== l.url) edits.push({ start: l.start, end: l.end!, text });
  }
  let out = body;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return normalizeBody(out);
}

type Ids = { pages: { get(id: string): string | undefined }; files: { get(id: string): string | undefined } };

/**
 * One link's URL as canonicalBody writes it, from a page whose links are relative to `from`
 * (pageDir): the canonical relative form, or the URL as written (a URL with a scheme, an anchor
 * of the page, a path that resolves to nothing). Also used by a write to check what it records
 * of a pushed page's links (push-context.ts), so both sides agree.
 */
export function canonicalLink(
  url: string,
  from: string,
  pageOf: (path: string) => { hasChildren: boolean } | undefined,
  fileNames: { has(name: string): boolean },
  idToPath: Ids,
): string {
  const text = linkText(url, from, pageOf, fileNames, idToPath);
  return text !== undefined && text !== url ? encodeURI(text) : url;
}

/** The relative form of a link (not yet URI-encoded), or undefined when it is left as written. */
function linkText(
  url: string,
  from: string,
  pageOf: (path: string) => { hasChildren: boolean } | undefined,
  fileNames: { has(name: string): boolean },
  idToPath: Ids,
): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('#')) return undefined;
  const [raw, anchor] = url.split('#', 2) as [string, string | undefined];
  const { page: pagePath, file: filePath } = linkTarget(raw, from, idToPath);
  const p = pagePath !== undefined ? pageOf(pagePath) : undefined;
  if (p && pagePath !== undefined) return relFrom(from, pageFile(pagePath, p.hasChildren)) + (anchor ? `#${anchor}` : '');
  if (filePath !== undefined && fileNames.has(filePath)) return relFrom(from, filePath);
  return undefined;
}

/** The page path or file name a link's URL (without its anchor) names: by id (`/pages/<id>`, `/files/<id>`), or lexically relative to `from`. */
export function linkTarget(raw: string, from: string, idToPath: Ids): { page?: string; file?: string } {
  if (raw.startsWith('/pages/')) return { page: idToPath.pages.get(raw.slice(7)) };
  if (raw.startsWith('/files/')) return { file: idToPath.files.get(raw.slice(7)) };
  if (raw.startsWith('/')) return {};
  const joined = posix.normalize(posix.join(from, decodeURI(raw)));
  return /\.md$/i.test(joined) ? { page: joined.replace(/\.md$/i, '').replace(/(^|\/)README$/i, '') } : { file: joined };
}

/** posix.relative from a page's folder, as a link writes it (`./x.md`, `../y.md`); memoized: the same few pairs recur over a folder's pages. */
function relFrom(from: string, target: string): string {
  const key = `${from}\0${target}`;
  let r = relMemo.get(key);
  if (r === undefined) {
    r = posix.relative(from || '.', target);
    r = r.startsWith('../') ? r : `./${r}`;
    if (relMemo.size >= 50_000) relMemo.clear();
    relMemo.set(key, r);
  }
  return r;
}

/** The links at known offsets (a link index), as extractLinks gives them. */
function linksAt(body: string, spans: number[]): { url: string; start: number; end: number }[] {
  const out = [];
  for (let i = 0; i < spans.length; i += 2) out.push({ url: body.slice(spans[i], spans[i + 1]), start: spans[i]!, end: spans[i + 1]! });
  return out;
}

/**
 * Link pages have no file, so no path: each is known by its place, `<parent path>/#link-<n>` (the
 * n-th link page among its siblings, from 1), on both sides of a push, so a link page of the
 * folder is compared with the one of the space at the same place (docs/manual/docs-as-code.md#link-pages).
 */
export function keyLinkPages<T extends { path: string; children: T[]; link?: string }>(pages: T[], parent = ''): T[] {
  let n = 0;
  for (const p of pages) {
    if (p.link !== undefined) p.path = `${parent ? `${parent}/` : ''}#link-${++n}`;
    else keyLinkPages(p.children, p.path);
  }
  return pages;
}

/**
 * A link page's URL as a SUMMARY.md link destination: as it is, unless its parentheses are
 * unbalanced (then escaped, so the link reads back whole).
 */
export function summaryUrl(url: string): string {
  let depth = 0;
  for (const ch of url) {
    if (ch === '(') depth++;
    else if (ch === ')' && --depth < 0) break;
  }
  return depth === 0 ? url : url.replace(/([()])/g, '\\$1');
}

/**
 * SUMMARY.md for a tree of pages (path, title, children; `link`: a link page's URL; `linkTo`: a
 * link page's page, by its file, and anchor: `* [Buttons](inline.md#buttons)`, `inline.md#` for
 * the page itself).
 */
export function writeSummary(
  pages: { path: string; title: string; children: any[]; group?: boolean; link?: string; linkTo?: { file: string; anchor: string } }[],
  summaryFile = 'SUMMARY.md',
): string {
  const lines = ['# Table of contents', ''];
  const from = posix.dirname(summaryFile);
  // A SUMMARY.md at the top (the usual place): a normalized relative path is its own relative
  // form, without posix.relative resolving both against the working folder (2,000 calls of
  // path.resolve for a 1,000-page pull).
  const rel = (file: string) => (from === '.' && !file.startsWith('/') && !/(^|\/)\.{0,2}(\/|$)/.test(file) ? file : posix.relative(from, file));
  const walk = (list: typeof pages, depth: number) => {
    for (const p of list) {
      if (p.linkTo !== undefined) {
        const to = `${encodeURI(rel(p.linkTo.file))}#${encodeURI(p.linkTo.anchor)}`;
        lines.push(`${'  '.repeat(depth)}* [${p.title.replace(/([[\]])/g, '\\$1')}](${to})`);
        continue;
      }
      if (p.link !== undefined) {
        lines.push(`${'  '.repeat(depth)}* [${p.title.replace(/([[\]])/g, '\\$1')}](${summaryUrl(p.link)})`);
        continue;
      }
      lines.push(`${'  '.repeat(depth)}* [${p.title.replace(/([[\]])/g, '\\$1')}](${encodeURI(rel(pageFile(p.path, p.children.length > 0)))})`);
      walk(p.children, depth + 1);
    }
  };
  // Group pages are `## Title` headings over their pages' list, as GitBook writes them.
  let run: typeof pages = [];
  const flush = () => {
    if (!run.length) return;
    if (lines[lines.length - 1] !== '') lines.push('');
    walk(run, 0);
    run = [];
  };
  for (const p of pages) {
    if (!p.group) {
      run.push(p);
      continue;
    }
    flush();
    if (lines[lines.length - 1] !== '') lines.push('');
    lines.push(`## ${p.title}`, '');
    walk(p.children, 0);
  }
  flush();
  while (lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n') + '\n';
}
