import { isUtf8 } from 'node:buffer';
import { hash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, posix } from 'node:path';
import { readPageSource, writePageSource } from '../../src/documents/page-source.js';
import type { Parse } from '../../src/content/link-refs.js';
import { slugify } from '../../src/content/tree.js';
import { collationKeys, naturalCollate } from '../../src/kernel/collate.js';
import { DocsError } from '../../src/kernel/errors.js';
import { MAX_PAGE_BYTES } from '../../src/kernel/limits.js';
import { openFolder, regularFile, walkFolder, type Entry, type Folder, type Walk } from './folder-walk.js';
import { readWhole } from './read-whole.js';
import { yielder } from './yield.js';
import { canonicalBody, keyLinkPages, pageFile, writeSummary } from '../../src/content/folder-layout.js';
import { anchorProblem, hasScheme, linkUrlProblem, splitFragment } from '../../src/content/link-pages.js';

// The layout's pure parts (a page's file, SUMMARY.md, links in relative form) are shared with
// imports and Git export (src/content/folder-layout.ts).
export { canonicalBody, pageFile, writeSummary };

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
  /** A group page (SUMMARY.md `## Heading`): no file, no body. */
  group?: boolean;
  /**
   * A link page (SUMMARY.md `* [Title](https://...)`): its URL; no file, no body, no subpages.
   * Its `path` is its place (`guides/#link-1`, keyLinkPages), not a file.
   */
  link?: string;
  /**
   * A link page to a page of the folder (SUMMARY.md `* [Buttons](inline.md#buttons)`, the file
   * listed elsewhere as a page): that page's path and file, and the anchor ('' for the page
   * itself, `inline.md#`). Its `link` is then `file#anchor`.
   */
  linkTo?: { path: string; file: string; anchor: string };
  /** The file as it is on disk, byte for byte (sent as the page's source: pull writes it back). */
  source?: string;
  /** SHA-256 (hex) of `source` as UTF-8: what the push digest's records are compared with. */
  sourceSha?: string;
}

export interface LocalFile {
  name: string;
  abs: string;
  size: number;
}

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.zip': 'application/zip',
  '.html': 'text/html',
};
export const contentTypeOf = (name: string) => TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';

const basename = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/**
 * The line of an unresolved conflict in a page (`docs cr resolve` writes them): the three markers
 * in order, each at the start of a line, as git writes them. Pushing one would publish the markers.
 */
export function conflictMarkerLine(text: string): number | undefined {
  // Most files have none: found without splitting them into lines.
  if (!text.includes('<<<<<<< ')) return undefined;
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('<<<<<<< '));
  if (start === -1) return undefined;
  const mid = lines.findIndex((l, i) => i > start && l.trimEnd() === '=======');
  const end = lines.findIndex((l, i) => i > mid && mid !== -1 && l.startsWith('>>>>>>> '));
  return mid !== -1 && end !== -1 ? start + 1 : undefined;
}

// Pages are laid out first (fromSummary, fromTree) and their files read after (loadPages), in
// chunks that give the event loop back (yield.ts): a folder of thousands of pages never holds it.
// `linkTitle`: the SUMMARY.md link's text, the page's title (its leading heading then stays in the
// body unless it says the same).
const pending = new WeakMap<LocalPage, { real: string; file: string; linkTitle?: string }>();

function readPage(real: string, path: string, file: string, children: LocalPage[], linkTitle?: string): LocalPage {
  const page: LocalPage = { path, title: linkTitle ?? basename(path), fields: {}, body: '', children };
  pending.set(page, { real, file, linkTitle });
  return page;
}

/**
 * The file's text and the SHA-256 of its text as UTF-8 (read-whole.ts), or its size when it holds
 * more than MAX_PAGE_BYTES. The hash is of the bytes read when they are UTF-8 (the same bytes
 * then): no second encoding of every page's text to compare it with the push digest.
 */
function readPageFile(real: string): { text: string; sha: string } | { size: number } {
  const bytes = readWhole(real, MAX_PAGE_BYTES);
  if (!Buffer.isBuffer(bytes)) return bytes;
  const text = bytes.toString('utf8');
  return { text, sha: hash('sha256', isUtf8(bytes) ? bytes : text, 'hex') };
}

function loadPage(page: LocalPage, { real, file, linkTitle }: { real: string; file: string; linkTitle?: string }) {
  let src;
  let read: ReturnType<typeof readPageFile>;
  try {
    read = readPageFile(real);
  } catch (err) {
    throw new DocsError('invalid', `${file}: ${(err as Error).message}`);
  }
  // Never read whole (nor parse: ~130 bytes of memory per byte) a page the server would refuse.
  if ('size' in read)
    throw new DocsError(
      'invalid',
      `${file}: ${read.size} bytes; a page is at most ${MAX_PAGE_BYTES} bytes (2 MiB) of markdown: split it into pages; nothing was sent`,
    );
  const text = read.text;
  try {
    src = readPageSource(text, linkTitle ? { title: linkTitle } : undefined);
  } catch (err) {
    throw new DocsError('invalid', `${file}: ${(err as Error).message}`);
  }
  const marker = conflictMarkerLine(text);
  if (marker !== undefined)
    throw new DocsError(
      'invalid',
      `${file}:${marker}: an unresolved conflict (<<<<<<< ... ======= ... >>>>>>>): keep the lines you want and remove the markers, then push again; nothing was sent`,
    );
  Object.assign(page, { title: src.title ?? basename(page.path), fields: src.fields, body: src.body, source: text, sourceSha: read.sha });
}

/** Reads the files of the pages laid out (in order: the first refused is the first in the tree). */
async function loadPages(pages: LocalPage[]) {
  const tick = yielder();
  for (const { page } of flattenLocal(pages)) {
    const at = pending.get(page);
    if (!at) continue;
    await tick();
    loadPage(page, at);
    pending.delete(page);
  }
}

/** The text of an inline node (a link's or a heading's), as read. */
const textOf = (n: any): string => (typeof n.value === 'string' ? n.value : (n.children ?? []).map(textOf).join(''));

/** The file a page is written to and read from when it has a body (what pull writes without a kept source). */
export function composePage(page: { title: string; fields: Record<string, unknown>; body: string }): string {
  return writePageSource({ title: page.title, fields: page.fields, body: page.body });
}

/**
 * Pages from SUMMARY.md: nested list items linking to files (each file read is added to `used`),
 * under `## Heading` group headings (group pages, as GitBook's Git Sync has them; a `# Title`
 * heading is the table's own). The link's text is the page's title. Each link must name a
 * regular file inside the folder, once: anything else is refused naming the line
 * (`SUMMARY.md line 3 (* [x](../../etc/passwd))`), before anything is sent, and so is a SUMMARY.md
 * that is not a list of links.
 */
function fromSummary(folder: Folder, parse: Parse, used: Set<string>, summaryFile = 'SUMMARY.md', notes: string[] = []): LocalPage[] {
  const text = readFileSync(regularFile(folder, summaryFile, summaryFile), 'utf8');
  const lines = text.split(/\r?\n/);
  const tree = parse(text) as any;
  const listed = new Map<string, number>();
  const pages = new Map<string, number>();
  const byFile = new Map<string, LocalPage>();
  const toPages: { page: LocalPage; where: string }[] = [];
  const at = (node: any) => {
    const line = node.position?.start.line as number | undefined;
    return line ? `${summaryFile} line ${line} (${lines[line - 1]!.trim()})` : summaryFile;
  };
  const items = (list: any): LocalPage[] =>
    (list?.children ?? []).flatMap((li: any) => {
      const para = li.children.find((c: any) => c.type === 'paragraph');
      const link = para?.children.find((c: any) => c.type === 'link');
      if (!link) {
        if (!li.children.length) return [];
        throw new DocsError('invalid', `${at(li)}: an entry is a link to a page's file (* [Title](page.md)); nothing was sent`);
      }
      const line = link.position?.start.line as number | undefined;
      const where = at(link);
      // A URL (a scheme: https:, mailto:) is a link page, as GitBook's Git Sync writes them
      // (docs/manual/docs-as-code.md#link-pages): a title that leads there, no file.
      if (hasScheme(link.url)) {
        const bad = linkUrlProblem(link.url);
        if (bad) throw new DocsError('invalid', `${where}: ${link.url}: ${bad}; nothing was sent`);
        if (li.children.some((c: any) => c.type === 'list' && c.children.length))
          throw new DocsError('invalid', `${where}: a link page (a URL) cannot hold pages: list them under a page's file; nothing was sent`);
        const title = textOf(link).trim();
        if (!title) throw new DocsError('invalid', `${where}: a link page needs a title ([Title](${link.url})); nothing was sent`);
        return [{ path: '', title, fields: {}, body: '', children: [], link: link.url } satisfies LocalPage];
      }
      // A fragment (inline.md#buttons, inline.md#): a link page to that page (and heading), its
      // file listed as a page on a line of its own (checked once every entry is read).
      const frag = splitFragment(link.url);
      const url = frag ? frag.file : link.url;
      let decoded: string;
      try {
        decoded = decodeURI(url);
      } catch {
        throw new DocsError('invalid', `${where}: ${link.url} is not a valid link (bad %-escape); nothing was sent`);
      }
      // Relative to SUMMARY.md's own folder (structure.summary may put it in one).
      const raw = decoded.replace(/^\.\//, '');
      const file = posix.normalize(posix.join(posix.dirname(summaryFile), raw));
      // Lexically outside (../, an absolute path) is refused before the disk is asked anything.
      if (
        file === '..' ||
        file.startsWith('../') ||
        posix.isAbsolute(raw) ||
        /^[a-z]:[\\/]/i.test(raw) ||
        /^[a-z][a-z0-9+.-]*:/i.test(decoded) ||
        raw.startsWith('\\')
      ) {
        throw new DocsError('invalid', `${where}: ${decoded} is outside ${folder.dir}; push reads only files inside the folder; nothing was sent`);
      }
      if (frag) {
        const bad = frag.anchor === '' ? undefined : anchorProblem(frag.anchor);
        if (bad) throw new DocsError('invalid', `${where}: #${frag.anchor}: ${bad}; nothing was sent`);
        if (li.children.some((c: any) => c.type === 'list' && c.children.length))
          throw new DocsError('invalid', `${where}: a link page (${link.url}) cannot hold pages: list them under a page's file; nothing was sent`);
        const title = textOf(link).trim();
        if (!title) throw new DocsError('invalid', `${where}: a link page needs a title ([Title](${link.url})); nothing was sent`);
        const page: LocalPage = { path: '', title, fields: {}, body: '', children: [], link: link.url, linkTo: { path: '', file, anchor: frag.anchor } };
        toPages.push({ page, where });
        return [page];
      }
      if (!existsSync(join(folder.dir, file))) throw new DocsError('invalid', `${where}: ${file} does not exist`);
      const real = regularFile(folder, file, where);
      if (listed.has(file))
        throw new DocsError('invalid', `${where}: ${file} is already listed on line ${listed.get(file)}; list each file once; nothing was sent`);
      listed.set(file, line ?? 0);
      const path = file.replace(/\.md$/i, '').replace(/\/README$/i, '');
      if (pages.has(path))
        throw new DocsError(
          'invalid',
          `${where}: ${file} is the page ${path}, already listed on line ${pages.get(path)}; list each page once; nothing was sent`,
        );
      pages.set(path, line ?? 0);
      used.add(file);
      const title = textOf(link).trim() || undefined;
      const page = readPage(real, path, file, items(li.children.find((c: any) => c.type === 'list')), title);
      byFile.set(file, page);
      return [page];
    });
  const out: LocalPage[] = [];
  let group: { page: LocalPage; where: string } | undefined;
  const headings = new Map<LocalPage, string>();
  for (const node of tree.children) {
    if (node.type === 'heading' && node.depth === 1 && !group && !out.length) continue; // the table's title
    if (node.type === 'heading') {
      const title = textOf(node).trim();
      if (!title) throw new DocsError('invalid', `${at(node)}: a group heading needs a title; nothing was sent`);
      group = { page: { path: '', title, fields: {}, body: '', children: [], group: true }, where: at(node) };
      out.push(group.page);
      headings.set(group.page, group.where);
    } else if (node.type === 'list') {
      (group ? group.page.children : out).push(...items(node));
    } else if (node.type !== 'html' && node.type !== 'thematicBreak' && node.type !== 'definition') {
      throw new DocsError(
        'invalid',
        `${at(node)}: not a list of links: ${summaryFile} holds lists of links to pages (* [Title](page.md)) and ## group headings; nothing was sent`,
      );
    }
  }
  // Link pages to a page: the file is a page of this SUMMARY.md (listed without a #), before or after.
  for (const { page, where } of toPages) {
    const to = byFile.get(page.linkTo!.file);
    if (!to)
      throw new DocsError(
        'invalid',
        `${where}: ${page.linkTo!.file} is not listed as a page in ${summaryFile}; a link to a page (page.md#anchor) leads to a file listed on a line of its own; nothing was sent`,
      );
    const file = pageFile(to.path, to.children.length > 0);
    page.linkTo = { path: to.path, file, anchor: page.linkTo!.anchor };
    page.link = `${file}#${page.linkTo.anchor}`;
  }
  // A group's slug is the folder its pages are in (a page's path is its group's slug, then its
  // own, as the space has it): every page of a group in one folder, its own. A group whose pages
  // are elsewhere (GitBook's Git Sync accepts `## Guides` over files at the top) cannot be a group
  // without moving its pages' paths: its pages go in at the top level, where the heading stood,
  // with a warning naming it (refusing would fail folders that pushed before groups existed).
  const slugs = new Set<string>();
  const kept: LocalPage[] = [];
  for (const [i, g] of out.entries()) {
    if (!g.group) {
      kept.push(g);
      continue;
    }
    // Link pages have no file, so no folder: the group's pages with files say where it is.
    const files = g.children.filter((c) => c.link === undefined);
    const folders = new Set(files.map((c) => (c.path.includes('/') ? c.path.slice(0, c.path.indexOf('/')) : '')));
    const [only] = folders;
    const slug = !files.length ? slugify(g.title) : folders.size === 1 && only ? only : '';
    if (!slug || slugs.has(slug) || out.some((p, j) => j !== i && !p.group && p.path === slug)) {
      const named = files
        .map((c) => c.path)
        .slice(0, 3)
        .join(', ');
      notes.push(
        `${headings.get(g)}: group "${g.title}" not made: its pages (${named || 'none'}) are not all in one folder of its own (guides/a.md, guides/b.md: the group's slug, part of their paths in the space), so they go in at the top level`,
      );
      kept.push(...g.children);
      continue;
    }
    slugs.add(slug);
    g.path = slug;
    kept.push(g);
  }
  return keyLinkPages(kept);
}

/**
 * Natural order of names: `2-setup` before `10-faq` (digits compared as numbers). ICU's ('en',
 * numeric, case ignored), with no ICU collator created for ASCII names (src/kernel/collate.ts).
 */
export const naturalCompare = (a: string, b: string) => naturalCollate(a, b) || (a < b ? -1 : a > b ? 1 : 0);

/**
 * `items` sorted by naturalCompare of their names, each name's collation key made once
 * (src/kernel/collate.ts) rather than both names checked and walked at every comparison (a
 * 2,000-page folder's walk spent ~90 ms in the comparator).
 */
export function naturalSortBy<T>(items: T[], nameOf: (item: T) => string): T[] {
  const names = items.map(nameOf);
  const keys = collationKeys(names, true);
  const byKey = items.map((item, i) => ({ item, name: names[i]!, key: keys?.[i] ?? '' }));
  byKey.sort(
    keys ? (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : (a, b) => naturalCompare(a.name, b.name),
  );
  return byKey.map((k) => k.item);
}

/** Pages from the folder tree: `x.md` files and folders (with `README.md` as their body); a root README.md first. */
function fromTree(walk: Walk, rel = '', readme = 'README.md'): LocalPage[] {
  const rootReadme = (name: string) => rel === '' && name.toLowerCase() === readme.toLowerCase();
  const files = walk.files.get(rel) ?? [];
  const sorted = naturalSortBy(
    [...files.map((e) => ({ e, dir: false })), ...(walk.dirs.get(rel) ?? []).map((e) => ({ e, dir: true }))].filter(
      ({ e }) => !e.name.startsWith('.') && !(rel === '' && e.name === 'SUMMARY.md'),
    ),
    ({ e }) => e.name,
  );
  // The root README.md first, the rest in natural order.
  const entries = rel === '' ? [...sorted.filter(({ e }) => rootReadme(e.name)), ...sorted.filter(({ e }) => !rootReadme(e.name))] : sorted;
  const out: LocalPage[] = [];
  for (const { e, dir } of entries) {
    const p = e.rel;
    if (dir) {
      const children = fromTree(walk, p);
      const readme = (walk.files.get(p) ?? []).find((f) => f.name === 'README.md');
      if (!readme && !children.length) continue; // a folder of files only (images, ...)
      out.push(readme ? readPage(readme.real, p, readme.rel, children) : { path: p, title: e.name, fields: {}, body: '', children });
    } else if (/\.md$/i.test(e.name) && !(rel && /^README\.md$/i.test(e.name))) {
      out.push(readPage(e.real, p.replace(/\.md$/i, ''), p, []));
    }
  }
  return out;
}

/** Every regular file of the walk (dot entries aside, `.gitbook` kept), by relative path. */
const allFiles = (walk: Walk): Entry[] => [...walk.files.values()].flat();

/** Non-markdown files, `.gitbook/assets` included, other dotfiles not. */
const listFiles = (walk: Walk): LocalFile[] =>
  allFiles(walk)
    .filter((e) => !/\.md$/i.test(e.name))
    .map((e) => ({ name: e.rel, abs: e.real, size: statSync(e.real).size }));

/** Markdown files of the folder (SUMMARY.md and dotfiles aside), by relative path. */
const markdownFiles = (walk: Walk, summaryFile = 'SUMMARY.md'): string[] =>
  allFiles(walk)
    .filter((e) => /\.md$/i.test(e.name) && !e.rel.startsWith('.') && e.rel !== summaryFile)
    .map((e) => e.rel);

/**
 * The folder's pages and files. `skipped`: markdown files SUMMARY.md does not list, which are
 * neither pages nor uploaded files (push warns about each, and refuses with --strict). `notes`:
 * what the walk left out (links to folders, sockets). Only regular files inside the folder are
 * read (folder-walk.ts).
 */
export async function readFolder(
  dir: string,
  parse: Parse,
  structure: { summary?: string; readme?: string } = {},
): Promise<{ pages: LocalPage[]; files: LocalFile[]; summary: boolean; skipped: string[]; notes: string[] }> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new DocsError('invalid', `DIR: ${dir} is not a folder`);
  const folder = openFolder(dir);
  const summaryFile = structure.summary ?? 'SUMMARY.md';
  const summary = existsSync(join(dir, summaryFile));
  if (!summary) {
    const walk = walkFolder(folder);
    // structure.readme (.gitbook.yaml) at the top: the first page, as README.md is otherwise.
    const readme = structure.readme && !structure.readme.includes('/') ? structure.readme : 'README.md';
    const pages = fromTree(walk, '', readme);
    await loadPages(pages);
    return { pages, files: listFiles(walk), summary, skipped: [], notes: walk.notes };
  }
  const used = new Set<string>();
  // SUMMARY.md first: a refused entry is named by its line, even when the walk would refuse it too.
  const groupNotes: string[] = [];
  const pages = fromSummary(folder, parse, used, summaryFile, groupNotes);
  const walk = walkFolder(folder);
  await loadPages(pages);
  const skipped = markdownFiles(walk, summaryFile)
    .filter((f) => !used.has(f))
    .sort(naturalCompare);
  return { pages, files: listFiles(walk), summary, skipped, notes: [...groupNotes, ...walk.notes] };
}

/** Every page, depth first, with its parent's path and its index among its siblings. */
export function flattenLocal(pages: LocalPage[], parent: string | null = null): { page: LocalPage; parent: string | null; index: number }[] {
  const out: { page: LocalPage; parent: string | null; index: number }[] = [];
  const walk = (list: LocalPage[], up: string | null) => {
    for (let index = 0; index < list.length; index++) {
      const page = list[index]!;
      out.push({ page, parent: up, index });
      if (page.children.length) walk(page.children, page.path);
    }
  };
  walk(pages, parent);
  return out;
}
