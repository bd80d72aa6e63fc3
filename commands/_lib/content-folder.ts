import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { extname, join, posix } from 'node:path';
import { normalizeBody, readPageSource } from '../../src/documents/page-source.js';
import { extractLinks, pageDir, type Parse } from '../../src/content/link-refs.js';
import { DocsError } from '../../src/kernel/errors.js';

// A folder of markdown as Git keeps docs, and the same content as the API has it. Layout (what
// `docs content pull` writes and `push` reads): a page at path `a/b` is `a/b.md`, or
// `a/b/README.md` when it has subpages; its slug is the file (or folder) name; `SUMMARY.md`
// gives the order (a nested list of links to the files; markdown files it does not list are
// skipped, and named as such); without it, the folder tree in natural name order (1, 2, 10), a
// root `README.md` first (the space's first page, as GitBook's Git Sync has it). Any other file is uploaded under its path (`images/logo.png`). Links are relative
// (`../guide.md`, `./images/logo.png`) in the folder and `/pages/<id>`, `/files/<id>` in the API;
// both sides are compared in one canonical relative form, so pull then push changes nothing.

export interface LocalPage {
  path: string;
  title: string;
  fields: Record<string, unknown>;
  body: string;
  children: LocalPage[];
}

export interface LocalFile {
  name: string;
  abs: string;
  size: number;
}

const TYPES: Record<string, string> = {
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.svg': 'image/svg+xml', '.webp': 'image/webp',
  '.pdf': 'application/pdf', '.json': 'application/json', '.yaml': 'application/yaml', '.yml': 'application/yaml', '.txt': 'text/plain',
  '.csv': 'text/csv', '.zip': 'application/zip', '.html': 'text/html',
};
export const contentTypeOf = (name: string) => TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';

export const pageFile = (path: string, hasChildren: boolean) => (hasChildren ? `${path}/README.md` : `${path}.md`);

const basename = (p: string) => p.slice(p.lastIndexOf('/') + 1);

function readPage(dir: string, path: string, file: string, children: LocalPage[]): LocalPage {
  let src;
  try {
    src = readPageSource(readFileSync(join(dir, file), 'utf8'));
  } catch (err) {
    throw new DocsError('invalid', `${file}: ${(err as Error).message}`);
  }
  return { path, title: src.title ?? basename(path), fields: src.fields, body: src.body, children };
}

/** Pages from SUMMARY.md: nested list items linking to files (each file read is added to `used`). */
function fromSummary(dir: string, parse: Parse, used: Set<string>): LocalPage[] {
  const tree = parse(readFileSync(join(dir, 'SUMMARY.md'), 'utf8')) as any;
  const items = (list: any): LocalPage[] =>
    (list?.children ?? []).flatMap((li: any) => {
      const para = li.children.find((c: any) => c.type === 'paragraph');
      const link = para?.children.find((c: any) => c.type === 'link');
      if (!link) return [];
      const file = decodeURI(link.url).replace(/^\.\//, '');
      if (!existsSync(join(dir, file))) throw new DocsError('invalid', `SUMMARY.md: ${file} does not exist`);
      const path = file.replace(/\.md$/i, '').replace(/\/README$/i, '');
      used.add(posix.normalize(file));
      return [readPage(dir, path, file, items(li.children.find((c: any) => c.type === 'list')))];
    });
  return tree.children.filter((n: any) => n.type === 'list').flatMap(items);
}

/** Natural order of names: `2-setup` before `10-faq` (digits compared as numbers). */
const natural = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
export const naturalCompare = (a: string, b: string) => natural.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

/** Pages from the folder tree: `x.md` files and folders (with `README.md` as their body); a root README.md first. */
function fromTree(dir: string, rel = ''): LocalPage[] {
  const rootReadme = (name: string) => rel === '' && /^README\.md$/i.test(name);
  const entries = readdirSync(join(dir, rel), { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.') && !(rel === '' && e.name === 'SUMMARY.md'))
    .sort((a, b) => Number(rootReadme(b.name)) - Number(rootReadme(a.name)) || naturalCompare(a.name, b.name));
  const out: LocalPage[] = [];
  for (const e of entries) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      const children = fromTree(dir, p);
      const hasReadme = existsSync(join(dir, p, 'README.md'));
      if (!hasReadme && !children.length) continue; // a folder of files only (images, ...)
      out.push(hasReadme ? readPage(dir, p, `${p}/README.md`, children) : { path: p, title: e.name, fields: {}, body: '', children });
    } else if (/\.md$/i.test(e.name) && !(rel && /^README\.md$/i.test(e.name))) {
      out.push(readPage(dir, p.replace(/\.md$/i, ''), p, []));
    }
  }
  return out;
}

/** Non-markdown files, `.gitbook/assets` included, other dotfiles not. */
function listFiles(dir: string, rel = ''): LocalFile[] {
  return readdirSync(join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.name.startsWith('.') && p !== '.gitbook' && !p.startsWith('.gitbook/')) return [];
    if (e.isDirectory()) return listFiles(dir, p);
    if (/\.md$/i.test(e.name)) return [];
    return [{ name: p, abs: join(dir, p), size: statSync(join(dir, p)).size }];
  });
}

/** Markdown files of the folder (SUMMARY.md and dotfiles aside), by relative path. */
function markdownFiles(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.name.startsWith('.') || p === 'SUMMARY.md') return [];
    if (e.isDirectory()) return markdownFiles(dir, p);
    return /\.md$/i.test(e.name) ? [p] : [];
  });
}

/**
 * The folder's pages and files. `skipped`: markdown files SUMMARY.md does not list, which are
 * neither pages nor uploaded files (push warns about each, and refuses with --strict).
 */
export function readFolder(dir: string, parse: Parse): { pages: LocalPage[]; files: LocalFile[]; summary: boolean; skipped: string[] } {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new DocsError('invalid', `DIR: ${dir} is not a folder`);
  const summary = existsSync(join(dir, 'SUMMARY.md'));
  if (!summary) return { pages: fromTree(dir), files: listFiles(dir), summary, skipped: [] };
  const used = new Set<string>();
  const pages = fromSummary(dir, parse, used);
  const skipped = markdownFiles(dir).filter((f) => !used.has(f)).sort(naturalCompare);
  return { pages, files: listFiles(dir), summary, skipped };
}

export const flattenLocal = (pages: LocalPage[], parent: string | null = null): { page: LocalPage; parent: string | null; index: number }[] =>
  pages.flatMap((page, index) => [{ page, parent, index }, ...flattenLocal(page.children, page.path)]);

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
): string {
  const from = pageDir(at.path, at.hasChildren);
  const rel = (target: string) => {
    const r = posix.relative(from || '.', target);
    return r.startsWith('../') ? r : `./${r}`;
  };
  const edits: { start: number; end: number; text: string }[] = [];
  for (const l of extractLinks(parse, body)) {
    if (l.start === undefined || /^[a-z][a-z0-9+.-]*:/i.test(l.url) || l.url.startsWith('#')) continue;
    const [raw, anchor] = l.url.split('#', 2) as [string, string | undefined];
    let pagePath: string | undefined;
    let filePath: string | undefined;
    if (raw.startsWith('/pages/')) pagePath = idToPath.pages.get(raw.slice(7));
    else if (raw.startsWith('/files/')) filePath = idToPath.files.get(raw.slice(7));
    else if (!raw.startsWith('/')) {
      const joined = posix.normalize(posix.join(from, decodeURI(raw)));
      if (/\.md$/i.test(joined)) pagePath = joined.replace(/\.md$/i, '').replace(/(^|\/)README$/i, '');
      else filePath = joined;
    }
    let text: string | undefined;
    const p = pagePath !== undefined ? pageOf(pagePath) : undefined;
    if (p && pagePath !== undefined) text = rel(pageFile(pagePath, p.hasChildren)) + (anchor ? `#${anchor}` : '');
    else if (filePath !== undefined && fileNames.has(filePath)) text = rel(filePath);
    if (text && text !== l.url) edits.push({ start: l.start, end: l.end!, text: encodeURI(text) });
  }
  let out = body;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return normalizeBody(out);
}

/** SUMMARY.md for a tree of pages (path, title, children). */
export function writeSummary(pages: { path: string; title: string; children: any[] }[]): string {
  const lines = ['# Table of contents', ''];
  const walk = (list: typeof pages, depth: number) => {
    for (const p of list) {
      lines.push(`${'  '.repeat(depth)}* [${p.title.replace(/([\[\]])/g, '\\$1')}](${encodeURI(pageFile(p.path, p.children.length > 0))})`);
      walk(p.children, depth + 1);
    }
  };
  walk(pages, 0);
  return lines.join('\n') + '\n';
}
