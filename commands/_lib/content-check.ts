import { existsSync, readFileSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import { headingAnchors } from '../../src/content/heading-anchors.js';
import { anchorProblem, hasScheme, linkUrlProblem, splitFragment } from '../../src/content/link-pages.js';
import { extractLinks, joinPath, pagePathOf, type Parse } from '../../src/content/link-refs.js';
import { DocsError } from '../../src/kernel/errors.js';
import { MAX_PAGE_BYTES } from '../../src/kernel/limits.js';
import type { Transport } from '../../src/transport/types.js';
import { naturalCompare, naturalSortBy } from './content-folder.js';
import { openFolder, walkFolder, type Entry } from './folder-walk.js';
import { collectPages, type ListBody } from './pages.js';
import { pageKey, type FactCache } from './link-cache.js';
import type { ExternalLink } from './external-links.js';
import { readWhole } from './read-whole.js';
import { yielder } from './yield.js';

// `docs content check`: what would be wrong after a push, found before it, all at once (push
// itself stops at the first refusal). A folder is read as push reads it (folder-walk.ts: only
// regular files inside it; existence is asked of the walk, never of the disk, so a link
// pointing outside the folder is reported, not probed). A space or a change request is checked
// by the server (listSpaceLinks, listChangeRequestLinks: its broken links).

export type ProblemKind =
  | 'broken-link' // a link to a page (markdown file) that is not there
  | 'broken-anchor' // page.md#x (or #x) where the page has no heading x
  | 'missing-image'
  | 'missing-file' // a link to another file (a PDF, ...) that is not there
  | 'outside-folder' // a link (or SUMMARY.md entry) leading out of the folder
  | 'bad-link' // a link that is not a valid URL (bad %-escape)
  | 'not-in-summary' // a markdown file SUMMARY.md does not list (push skips it)
  | 'summary-missing-file' // a SUMMARY.md entry whose file is not there
  | 'summary-not-a-list' // a SUMMARY.md without a list of links: push would find no page
  | 'duplicate-path' // two entries or files for one page path
  | 'broken-external'; // --external: an http(s) link that answers 404, 5xx, nothing (external-links.ts)

export interface Problem {
  /** As the user opens it: DIR joined with the file's path in the folder (or a page path, remotely). */
  file: string;
  line?: number;
  kind: ProblemKind;
  message: string;
}

export interface CheckResult {
  target: { dir: string } | { space: string; changeRequest?: string };
  /** What was checked: pages and files of a folder, links of a space. */
  counts: { pages?: number; files?: number; links?: number; external?: number };
  problems: Problem[];
  /** --external: the URLs not asked, and why (a private address, over --external-max). */
  notChecked?: { url: string; why: string }[];
}

const isMarkdown = (name: string) => /\.md$/i.test(name);
/** `names` sorted by naturalCompare, each name's collation key made once (src/kernel/collate.ts). */
const naturalSort = (names: string[]): string[] => naturalSortBy(names, (n) => n);
/** What a check needs of a page, from one parse: its links and the anchors of its headings. */
interface PageFacts {
  links: { url: string; type: string; line: number }[];
  anchors: string[];
}

/** `summary`: the table of contents, relative to DIR (.gitbook.yaml's structure.summary; its links are relative to its own folder). */
export async function checkFolder(
  dir: string,
  parse: Parse,
  cache?: FactCache,
  summary = 'SUMMARY.md',
  /** --external: the pages' http(s) links are added here (with file and line) for external-links.ts. */
  external?: ExternalLink[],
): Promise<CheckResult> {
  const tick = yielder();
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new DocsError('invalid', `DIR: ${dir} is not a folder`);
  const walk = walkFolder(openFolder(dir));
  const entries = new Map<string, Entry>([...walk.files.values()].flat().map((e) => [e.rel, e]));
  const problems: Problem[] = [];
  const shown = (rel: string) => posix.join(dir.replace(/\\/g, '/'), rel);
  const add = (rel: string, line: number | undefined, kind: ProblemKind, message: string) =>
    problems.push({ file: shown(rel), ...(line ? { line } : {}), kind, message });
  const trees = new Map<string, ReturnType<Parse>>();
  const texts = new Map<string, string>();
  const textOf = (rel: string) => texts.get(rel) ?? (texts.set(rel, readFileSync(entries.get(rel)!.real, 'utf8')), texts.get(rel)!);
  const treeOf = (rel: string) => trees.get(rel) ?? (trees.set(rel, parse(textOf(rel))), trees.get(rel)!);

  const markdown = naturalSort([...entries.keys()].filter((f) => isMarkdown(f) && !f.startsWith('.') && f !== summary));
  // The pages: SUMMARY.md's entries, else every markdown file (as push reads the folder).
  let pages: string[];
  const anchored: { file: string; anchor: string; line: number | undefined; url: string }[] = [];
  if (entries.has(summary)) {
    pages = summaryPages(
      treeOf(summary),
      entries,
      (line, kind, message) => add(summary, line, kind, message),
      posix.dirname(summary).replace(/^\.$/, ''),
      anchored,
    );
    if (!(treeOf(summary) as any).children.some((n: any) => n.type === 'list'))
      add(summary, 1, 'summary-not-a-list', 'not a list of links to pages (* [Title](page.md), nested for subpages): push would find no page in it');
    const listed = new Set(pages);
    for (const f of markdown) if (!listed.has(f)) add(f, 1, 'not-in-summary', `not listed in SUMMARY.md: push skips it (list it, or remove it)`);
  } else {
    pages = markdown;
    // a.md and a/README.md are both the page `a`; Guide.md and guide.md clash on a
    // case-insensitive disk (a pull on macOS or Windows).
    const byPath = new Map<string, string>();
    for (const f of markdown) {
      const key = pagePathOf(f).toLowerCase();
      const earlier = byPath.get(key);
      if (earlier)
        add(
          f,
          1,
          'duplicate-path',
          `page path ${pagePathOf(f)} is also ${earlier}${pagePathOf(earlier) === pagePathOf(f) ? '' : ' (they differ only in case)'}; rename one`,
        );
      else byPath.set(key, f);
    }
  }

  // A page's links and anchors: from the cache by the SHA-256 of its text (a page is parsed
  // once per text, link-cache.ts), else from its parse.
  const factsOf = new Map<string, PageFacts>();
  const facts = (rel: string): PageFacts => {
    const had = factsOf.get(rel);
    if (had) return had;
    // The bytes hashed as read, hashed once: a known page is neither decoded nor parsed.
    // Read through push's shared buffer (no stat, no buffer of its own): hashed, and decoded only
    // when not known, before the next read. A file over push's limit is read as it is.
    let bytes: Buffer | undefined;
    if (!texts.has(rel)) {
      const read = readWhole(entries.get(rel)!.real, MAX_PAGE_BYTES);
      bytes = Buffer.isBuffer(read) ? read : readFileSync(entries.get(rel)!.real);
    }
    const key = cache ? pageKey(bytes ?? Buffer.from(textOf(rel), 'utf8')) : '';
    let got = cache?.get(key);
    if (!got) {
      if (bytes && !texts.has(rel)) texts.set(rel, bytes.toString('utf8'));
      const text = textOf(rel);
      got = {
        links: extractLinks(() => treeOf(rel), text).map(({ url, type, line }) => ({ url, type, line })),
        anchors: [...headingAnchors(treeOf(rel))],
      };
      cache?.set(key, got);
    }
    trees.delete(rel);
    factsOf.set(rel, got);
    return got;
  };
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (rel: string) => anchorsOf.get(rel) ?? (anchorsOf.set(rel, new Set(facts(rel).anchors)), anchorsOf.get(rel)!);
  const hasAnchor = (rel: string, anchor: string) => {
    let a = anchor;
    try {
      a = decodeURIComponent(anchor);
    } catch {}
    const set = anchors(rel);
    return set.has(a) || set.has(a.toLowerCase());
  };
  const isPage = new Set(pages);
  // SUMMARY.md's link pages to a page: its file listed as a page, and the anchor one of its headings.
  for (const a of anchored) {
    if (!isPage.has(a.file))
      add(summary, a.line, 'broken-link', `link page ${a.url}: ${a.file} is not listed as a page in SUMMARY.md (on a line of its own, without #)`);
    else if (a.anchor && !hasAnchor(a.file, a.anchor)) add(summary, a.line, 'broken-anchor', `broken anchor ${a.url}: ${a.file} has no heading #${a.anchor}`);
  }
  for (const page of pages) {
    await tick();
    const from = posix.dirname(page) === '.' ? '' : posix.dirname(page);
    for (const l of facts(page).links) {
      const url = l.url;
      // External links (a scheme: https:, mailto:) and site-absolute ones are not checked here
      // (http and https ones are, with --external, by external-links.ts).
      if (external && /^https?:\/\//i.test(url)) external.push({ url, file: shown(page), line: l.line });
      if (!url || /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('/') || url.startsWith('//')) continue;
      const hash = url.indexOf('#');
      const raw = (hash < 0 ? url : url.slice(0, hash)).replace(/\?.*$/, '');
      const anchor = hash < 0 ? '' : url.slice(hash + 1);
      if (raw === '') {
        if (anchor && !hasAnchor(page, anchor)) add(page, l.line, 'broken-anchor', `broken anchor #${anchor}: no such heading in this page`);
        continue;
      }
      let decoded: string;
      try {
        decoded = decodeURI(raw);
      } catch {
        add(page, l.line, 'bad-link', `${url} is not a valid link (bad %-escape)`);
        continue;
      }
      const target = joinPath(from, decoded);
      if (target === undefined) {
        add(page, l.line, 'outside-folder', `link ${url} leads outside ${dir}: push reads only files inside the folder`);
        continue;
      }
      // A link to a folder resolves to nothing once pushed (the server's check says so too).
      if (decoded.endsWith('/') || walk.dirs.has(target) || target === '') {
        const readme = target ? `${target}/README.md` : 'README.md';
        add(page, l.line, 'broken-link', `broken link ${url}: a folder${entries.has(readme) ? `; link its page, ${posix.relative(from || '.', readme)}` : ''}`);
        continue;
      }
      if (isMarkdown(target)) {
        if (!entries.has(target)) add(page, l.line, 'broken-link', `broken link ${url}: no page ${target}`);
        else if (!isPage.has(target)) add(page, l.line, 'broken-link', `broken link ${url}: ${target} is not in SUMMARY.md, so push skips it`);
        else if (anchor && !hasAnchor(target, anchor)) add(page, l.line, 'broken-anchor', `broken anchor ${url}: ${target} has no heading #${anchor}`);
      } else if (!entries.has(target)) {
        if (l.type === 'image') add(page, l.line, 'missing-image', `missing image ${url}: no file ${target}`);
        else add(page, l.line, 'missing-file', `missing file ${url}: no file ${target}`);
      }
    }
  }
  // By file, then line (as linters list them); on one line, in the order written.
  problems.sort((a, b) => naturalCompare(a.file, b.file) || (a.line ?? 0) - (b.line ?? 0));
  return { target: { dir }, counts: { pages: pages.length, files: [...entries.keys()].filter((f) => !isMarkdown(f)).length }, problems };
}

/**
 * SUMMARY.md's entries, in order, as push reads them (content-folder.ts fromSummary), but each
 * problem reported instead of the first one refused: an entry outside the folder, without its
 * file, or listed twice (the same file, or two files of one page path).
 */
function summaryPages(
  tree: any,
  entries: Map<string, Entry>,
  report: (line: number | undefined, kind: ProblemKind, message: string) => void,
  base = '',
  /** Link pages to a page (`inline.md#buttons`): their file, anchor ('' for the page) and line. */
  anchored: { file: string; anchor: string; line: number | undefined; url: string }[] = [],
): string[] {
  const out: string[] = [];
  const files = new Map<string, number | undefined>();
  const paths = new Map<string, number | undefined>();
  const at = (line: number | undefined) => (line ? ` on line ${line}` : '');
  const items = (list: any) => {
    for (const li of list?.children ?? []) {
      const para = li.children.find((c: any) => c.type === 'paragraph');
      const link = para?.children.find((c: any) => c.type === 'link');
      if (link && hasScheme(link.url)) {
        // A link page (docs/manual/docs-as-code.md#link-pages): no file to find; its URL is
        // checked as push checks it, and it holds no pages.
        const line = link.position?.start.line as number | undefined;
        const bad = linkUrlProblem(link.url);
        if (bad) report(line, 'bad-link', `${link.url}: ${bad} (entry "${toText(link)}")`);
        const sub = li.children.find((c: any) => c.type === 'list');
        if (sub?.children.length) report(line, 'bad-link', `a link page (${link.url}) cannot hold pages: list them under a page's file`);
        items(sub);
        continue;
      }
      if (link) {
        const line = link.position?.start.line as number | undefined;
        // A link page to a page (inline.md#buttons, inline.md#): checked once every entry is read.
        const frag = splitFragment(link.url);
        let decoded: string | undefined;
        try {
          decoded = decodeURI(frag ? frag.file : link.url);
        } catch {
          report(line, 'bad-link', `${link.url} is not a valid link (bad %-escape)`);
        }
        const file = decoded === undefined ? undefined : joinPath(base, decoded.replace(/^\.\//, ''));
        if (decoded !== undefined && (file === undefined || posix.isAbsolute(decoded) || /^[a-z][a-z0-9+.-]*:/i.test(decoded)))
          report(line, 'outside-folder', `${decoded} is outside the folder; push reads only files inside it`);
        else if (file !== undefined && !entries.has(file)) report(line, 'summary-missing-file', `${file}: no such file (entry "${toText(link)}")`);
        else if (file !== undefined && frag) {
          const bad = frag.anchor === '' ? undefined : anchorProblem(frag.anchor);
          if (bad) report(line, 'bad-link', `${link.url}: ${bad}`);
          else anchored.push({ file, anchor: frag.anchor, line, url: link.url });
          const sub = li.children.find((c: any) => c.type === 'list');
          if (sub?.children.length) report(line, 'bad-link', `a link page (${link.url}) cannot hold pages: list them under a page's file`);
        } else if (file !== undefined && files.has(file))
          report(line, 'duplicate-path', `${file} is already listed${at(files.get(file))}; list each file once`);
        else if (file !== undefined && paths.has(pagePathOf(file)))
          report(line, 'duplicate-path', `${file} is the page ${pagePathOf(file)}, already listed${at(paths.get(pagePathOf(file)))}; list each page once`);
        else if (file !== undefined) {
          files.set(file, line);
          paths.set(pagePathOf(file), line);
          out.push(file);
        }
      }
      items(li.children.find((c: any) => c.type === 'list'));
    }
  };
  for (const n of tree.children ?? []) if (n.type === 'list') items(n);
  return out;
}

const toText = (n: any): string => (typeof n.value === 'string' ? n.value : (n.children ?? []).map(toText).join(''));

/** The server's own link check of a space (or of a change request's content): its broken links. */
export async function checkRemote(transport: Transport, space: string, changeRequest?: string): Promise<CheckResult> {
  const get = async (page?: string) => {
    const query = { limit: 1000, status: 'broken', ...(page ? { page } : {}) };
    const res = changeRequest
      ? await transport.call('listChangeRequestLinks', { path: { spaceId: space, changeRequestId: changeRequest }, query })
      : await transport.call('listSpaceLinks', { path: { spaceId: space }, query });
    return res.body as ListBody<any> & { stats: any };
  };
  const { items, stats } = (await collectPages(await get(), get)) as ListBody<any> & { stats: any };
  const problems: Problem[] = [];
  for (const i of items) {
    if (i.status !== 'broken') continue;
    const t = i.targetReference ?? {};
    const target = t.kind === 'url' ? String(t.url) : `${t.kind ?? '?'} ${t[t.kind]?.id ?? '?'}`;
    for (const l of i.locationReferences ?? []) {
      const file = l?.kind === 'page' ? String(l.page?.path ?? l.page?.id ?? '?') : String(l?.kind ?? '?');
      problems.push({ file, kind: 'broken-link', message: `broken link ${target}` });
    }
  }
  problems.sort((a, b) => naturalCompare(a.file, b.file) || naturalCompare(a.message, b.message));
  return { target: { space, ...(changeRequest ? { changeRequest } : {}) }, counts: { links: Number(stats?.total ?? 0) }, problems };
}

/** The http(s) links of a space (or of a change request's content), where each is used: for --external. */
export async function remoteExternalLinks(transport: Transport, space: string, changeRequest?: string): Promise<ExternalLink[]> {
  const get = async (page?: string) => {
    const query = { limit: 1000, ...(page ? { page } : {}) };
    const res = changeRequest
      ? await transport.call('listChangeRequestLinks', { path: { spaceId: space, changeRequestId: changeRequest }, query })
      : await transport.call('listSpaceLinks', { path: { spaceId: space }, query });
    return res.body as ListBody<any>;
  };
  const { items } = await collectPages(await get(), get);
  const out: ExternalLink[] = [];
  for (const i of items) {
    const url = i.targetReference?.kind === 'url' ? String(i.targetReference.url) : '';
    if (!/^https?:\/\//i.test(url)) continue;
    for (const l of i.locationReferences ?? [])
      out.push({ url, file: l?.kind === 'page' ? String(l.page?.path ?? l.page?.id ?? '?') : String(l?.kind ?? '?') });
  }
  return out;
}
