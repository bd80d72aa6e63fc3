import type { Root } from 'mdast';
import type { FileEntry, PageNode } from './model.js';
import { flatten, type Located } from './tree.js';

// Links inside page markdown, found with the markdown parser (never with regular expressions),
// and what they point at in a revision. Stored markdown names pages as `/pages/<id>` and files
// as `/files/<id>`: links written as paths (`/pages/a/b`, `./x.md`, `../y/README.md`, a batch
// `ref`) are rewritten to those forms on write, so moving or renaming a page keeps them working.

export type Parse = (markdown: string) => Root;

/** Loads the parser once; writes are synchronous, so handlers load it before they write. */
export async function loadParser(): Promise<Parse> {
  const { fromMarkdown } = await import('mdast-util-from-markdown');
  return (md) => fromMarkdown(md);
}

export interface RawLink {
  url: string;
  /** link, image or definition (`[x]: url`), as the parser names it. */
  type: 'link' | 'image' | 'definition';
  /** The line it starts on (1-based). */
  line: number;
  /** Offsets of the URL text in the markdown, when it appears verbatim (for rewriting). */
  start?: number;
  end?: number;
}

export function extractLinks(parse: Parse, markdown: string): RawLink[] {
  const out: RawLink[] = [];
  const visit = (n: any) => {
    if ((n.type === 'link' || n.type === 'image' || n.type === 'definition') && typeof n.url === 'string' && n.position) {
      const from = n.position.start.offset as number;
      const slice = markdown.slice(from, n.position.end.offset);
      const at = slice.lastIndexOf(n.url);
      const base = { url: n.url as string, type: n.type, line: n.position.start.line as number };
      out.push(at >= 0 ? { ...base, start: from + at, end: from + at + n.url.length } : base);
    }
    for (const c of n.children ?? []) visit(c);
  };
  visit(parse(markdown));
  return out;
}

export type Target =
  | { kind: 'page'; page: string; anchor?: string }
  | { kind: 'file'; file: string }
  | { kind: 'url'; url: string; inApp: boolean }
  | { kind: 'anchor' }
  | { kind: 'missing-page'; ref: string }
  | { kind: 'missing-file'; ref: string };

export interface Resolver {
  resolve(url: string, fromPage: string): Target;
}

/** The directory a page's links are relative to, in the folder layout of `docs content pull`. */
export function pageDir(path: string, hasChildren: boolean): string {
  if (hasChildren) return path;
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** `dir` joined with `rel`, lexically; undefined when it leaves the root. */
export function joinPath(dir: string, rel: string): string | undefined {
  const parts = dir ? dir.split('/') : [];
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (!parts.length) return undefined;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/');
}

/** `a/b.md`, `a/b/README.md`, `a/b` -> page path `a/b`. */
export const pagePathOf = (p: string) =>
  p
    .replace(/\.md$/i, '')
    .replace(/(^|\/)README$/i, '')
    .replace(/\/$/, '');

/**
 * The page at a path; the root's README.md (path '') is the page pushed from it, whose path is
 * `README` (push names a page after its file), so a link to it from any page is not broken.
 */
function pageAt(m: PageLookup, path: string): string | undefined {
  return m.idAt(path) ?? (path === '' ? (m.idAt('README') ?? m.idAt('readme')) : undefined);
}

/** Pages found one at a time (an authoring batch's tree, tree.ts EditableTree), not by a walk. */
export interface PageLookup {
  locate(id: string): { node: PageNode; path: string } | undefined;
  /** The page at a path (the last in depth-first order when several share it). */
  idAt(path: string): string | undefined;
}

export function makeResolver(
  pages: readonly PageNode[] | PageLookup,
  files: readonly FileEntry[],
  baseUrl: string,
  refs: { pages?: Map<string, string>; files?: Map<string, string> } = {},
): Resolver {
  // From a list, the page maps are built on the first relative or /pages/ link: most bodies
  // have none, and building them walks every page of the space.
  let maps: PageLookup | undefined = 'idAt' in pages ? pages : undefined;
  const pageMaps = (): PageLookup => {
    if (!maps) {
      const flat = flatten(pages as readonly PageNode[]);
      const byId = new Map<string, Located>(flat.map((l) => [l.node.id, l]));
      const byPath = new Map(flat.map((l) => [l.path, l.node.id]));
      maps = { locate: (id) => byId.get(id), idAt: (path) => byPath.get(path) };
    }
    return maps;
  };
  const fileIds = new Set(files.map((f) => f.id));
  const fileByName = new Map(files.map((f) => [f.name, f.id]));
  const page = (id: string | undefined, ref: string, anchor?: string): Target =>
    id ? { kind: 'page', page: id, ...(anchor ? { anchor } : {}) } : { kind: 'missing-page', ref };
  return {
    resolve(url, fromPage) {
      if (url.startsWith('#')) return { kind: 'anchor' };
      if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return { kind: 'url', url, inApp: url.startsWith(baseUrl + '/') };
      const [raw, anchor] = url.split('#', 2) as [string, string | undefined];
      const target = decodeURI(raw);
      if (target.startsWith('/pages/')) {
        const m = pageMaps();
        const rest = target.slice('/pages/'.length);
        return page(m.locate(rest) ? rest : pageAt(m, pagePathOf(rest)), target, anchor);
      }
      if (target.startsWith('/files/')) {
        const rest = target.slice('/files/'.length);
        return fileIds.has(rest) ? { kind: 'file', file: rest } : { kind: 'missing-file', ref: target };
      }
      if (target.startsWith('/')) return { kind: 'url', url, inApp: false };
      const m = pageMaps();
      const here = m.locate(fromPage);
      const dir = here ? pageDir(here.path, here.node.pages.length > 0) : '';
      const plain = target.replace(/^\.\//, '');
      if (/\.md$/i.test(target)) {
        const ref = refs.pages?.get(plain.replace(/\.md$/i, ''));
        if (ref) return page(ref, target, anchor);
        const p = joinPath(dir, target);
        return page(p === undefined ? undefined : pageAt(m, pagePathOf(p)), target, anchor);
      }
      const fref = refs.files?.get(plain);
      if (fref) return { kind: 'file', file: fref };
      const p = joinPath(dir, target);
      const f = p === undefined ? undefined : fileByName.get(p);
      return f ? { kind: 'file', file: f } : { kind: 'missing-file', ref: target };
    },
  };
}

/** The markdown with every resolvable page and file link in its stored form. */
export function canonicalLinks(parse: Parse, markdown: string, pageId: string, resolver: Resolver): string {
  return canonicalLinksIndexed(parse, markdown, pageId, resolver).markdown;
}

/** A link URL a folder's relative form may rewrite: not a scheme (`https:`), not `#anchor` only. */
export const isRewritable = (url: string) => !/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith('#');

/**
 * canonicalLinks, and where the rewritable links (isRewritable) are in the result: flat
 * [start, end, start, end, ...] offsets of their URL text, found in the one parse the write
 * does (the offsets of the input, shifted by the rewrites before them). Stored with the body
 * (link-index.ts), they let a reader rewrite links again without parsing the page.
 */
export function canonicalLinksIndexed(
  parse: Parse,
  markdown: string,
  pageId: string,
  resolver: Resolver,
  /** Each link, as written and as stored (a push records what its links depend on: push-context.ts). */
  seen?: (written: string, stored: string) => void,
): { markdown: string; spans: number[] } {
  const links = extractLinks(parse, markdown)
    .filter((l) => l.start !== undefined)
    .sort((a, b) => a.start! - b.start!);
  let out = '';
  let from = 0;
  const spans: number[] = [];
  for (const l of links) {
    if (l.start! < from) continue; // overlapping (cannot happen in a parse; never trusted)
    const t = resolver.resolve(l.url, pageId);
    const stored = t.kind === 'page' ? `/pages/${t.page}${t.anchor ? '#' + t.anchor : ''}` : t.kind === 'file' ? `/files/${t.file}` : undefined;
    const text = stored ?? l.url;
    seen?.(l.url, text);
    out += markdown.slice(from, l.start);
    if (isRewritable(text)) spans.push(out.length, out.length + text.length);
    out += text;
    from = l.end!;
  }
  out += markdown.slice(from);
  return { markdown: out, spans };
}
