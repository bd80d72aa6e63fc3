import { canonicalLink, linkTarget } from './folder-layout.js';
import { pageDir, type PageLookup } from './link-refs.js';
import type { PathState, SourceLinks } from './model.js';

// What a pushed page's body depends on besides its file, recorded when the body is written from
// the file (a docs-as-code push's `source`), so that the next push can tell the page unchanged
// from the SHA-256 of its file alone, without reading the space's markdown nor parsing the file
// (docs/manual/docs-as-code.md#what-a-push-reads).
//
// `docs content push` compares a page by its links' canonical relative form on both sides
// (folder-layout.ts canonicalBody): the folder's file with its relative links resolved against
// the folder's tree, the space's body with `/pages/<id>`, `/files/<id>` resolved against the
// space's ids. For a file whose bytes are the kept source's, that comparison can only come out
// differently from when the body was written if one of its inputs changed: the page's own place
// (its links are relative to its folder), what is at each path its links name (nothing, a page,
// a page with subpages: README.md or x.md), which file names exist, and where each page or file
// the stored body names by id is now. Those are recorded here, from the tree of the write (the
// folder's, once the push laid it out), and checked by the push against both trees now
// (sourceLinksHold): any difference, or a record missing (a store written before it), and the
// page is compared in full, as before.

export type { PathState, SourceLinks };

const stateOf = (lookup: PageLookup, path: string): PathState => {
  const id = lookup.idAt(path);
  const node = id === undefined ? undefined : lookup.locate(id)?.node;
  return !node ? 0 : node.pages.length ? 2 : 1;
};

/**
 * The record of a page's links (`links`: each as written in the body sent and as stored), from
 * the tree of the write; undefined when a link is not in the form a push sends (the folder's
 * canonical relative form, which both sides then agree on), so the page is always compared in full.
 */
export function recordSourceLinks(
  lookup: PageLookup,
  files: readonly { id: string; name: string }[],
  pageId: string,
  links: { written: string; stored: string }[],
): SourceLinks | undefined {
  const here = lookup.locate(pageId);
  if (!here) return undefined;
  const from = pageDir(here.path, here.node.pages.length > 0);
  const names = new Set(files.map((f) => f.name));
  const fileName = new Map(files.map((f) => [f.id, f.name]));
  const paths = new Map<string, PathState>();
  const fileSeen = new Map<string, 0 | 1>();
  const pages = new Map<string, string>();
  const fileIds = new Map<string, string>();
  const pageOf = (path: string) => {
    const s = stateOf(lookup, path);
    paths.set(path, s);
    return s ? { hasChildren: s === 2 } : undefined;
  };
  const has = {
    has: (name: string) => {
      const got = names.has(name);
      fileSeen.set(name, got ? 1 : 0);
      return got;
    },
  };
  const ids = {
    pages: {
      get: (id: string) => {
        const p = lookup.locate(id)?.path;
        if (p !== undefined) pages.set(id, p);
        return p;
      },
    },
    files: {
      get: (id: string) => {
        const n = fileName.get(id);
        if (n !== undefined) fileIds.set(id, n);
        return n;
      },
    },
  };
  try {
    for (const { written, stored } of links) {
      // Both sides must give the same canonical text now (the folder's body was sent in that
      // form): otherwise a comparison would differ, and the page is never taken as unchanged.
      const a = canonicalLink(written, from, pageOf, has, ids);
      const b = canonicalLink(stored, from, pageOf, has, ids);
      if (a !== written || b !== written) return undefined;
      // A link by id whose page or file is gone: its path is not known, nothing to hold it to.
      for (const url of [written, stored]) {
        const raw = url.split('#', 1)[0]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('#')) continue;
        const t = linkTarget(raw, from, ids);
        if ((raw.startsWith('/pages/') && t.page === undefined) || (raw.startsWith('/files/') && t.file === undefined)) return undefined;
      }
    }
  } catch {
    return undefined; // a link that is not a valid URI (decodeURI): compared in full, as canonicalBody does
  }
  return {
    at: [here.path, here.node.pages.length ? 2 : 1],
    paths: [...paths],
    names: [...fileSeen],
    pages: [...pages],
    files: [...fileIds],
  };
}

const isState = (v: unknown): v is PathState => v === 0 || v === 1 || v === 2;
const pairs = <T>(v: unknown, ok: (x: unknown) => x is T): v is [string, T][] => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) {
    const p = v[i];
    if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'string' || !ok(p[1])) return false;
  }
  return true;
};
const isString = (v: unknown): v is string => typeof v === 'string';
const isBit = (v: unknown): v is 0 | 1 => v === 0 || v === 1;

/** Whether a value read back (from a store, over HTTP) is a well-formed record; anything else is not used. */
export function wellFormedLinks(v: unknown): v is SourceLinks {
  if (!v || typeof v !== 'object') return false;
  const r = v as Record<string, unknown>;
  return (
    Array.isArray(r.at) &&
    r.at.length === 2 &&
    typeof r.at[0] === 'string' &&
    isState(r.at[1]) &&
    pairs(r.paths, isState) &&
    pairs(r.names, isBit) &&
    pairs(r.pages, isString) &&
    pairs(r.files, isString)
  );
}

/**
 * Whether what the page's links depend on is as recorded: in the folder now (`stateOf` a path,
 * `hasFile`), and in the space now (`pagePath` and `fileName` of an id).
 */
export function sourceLinksHold(
  rec: SourceLinks,
  now: {
    path: string;
    stateOf: (path: string) => PathState;
    hasFile: (name: string) => boolean;
    pagePath: (id: string) => string | undefined;
    fileName: (id: string) => string | undefined;
  },
): boolean {
  if (rec.at[0] !== now.path || now.stateOf(now.path) !== rec.at[1]) return false;
  // Indexed loops: this runs once per page of a push, before the engine compiles it.
  const { paths, names, pages, files } = rec;
  for (let i = 0; i < paths.length; i++) if (now.stateOf(paths[i]![0]) !== paths[i]![1]) return false;
  for (let i = 0; i < names.length; i++) if (now.hasFile(names[i]![0]) !== (names[i]![1] === 1)) return false;
  for (let i = 0; i < pages.length; i++) if (now.pagePath(pages[i]![0]) !== pages[i]![1]) return false;
  for (let i = 0; i < files.length; i++) if (now.fileName(files[i]![0]) !== files[i]![1]) return false;
  return true;
}
