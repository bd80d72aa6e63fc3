import type { ContentIndex } from '../../src/content-index.js';
import { keyLinkPages, pageFile } from '../../src/content/folder-layout.js';
import { trustedSpans, wellFormed } from '../../src/content/link-index.js';
import { wellFormedLinks, type SourceLinks } from '../../src/content/push-context.js';
import { documentToMarkdown } from '../../src/documents/markdown.js';
import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';
import { collectPages, type ListBody } from './pages.js';
import { yielder } from './yield.js';

// The content of a space (current revision) or of one of its change requests, as the API gives
// it, reduced to what `docs content push|pull` compare: pages by path, files by name.

export interface RemotePage {
  id: string;
  path: string;
  title: string;
  fields: Record<string, unknown>;
  markdown: string;
  children: RemotePage[];
  /** A group page (SUMMARY.md `## Heading`): a title and subpages, no body. */
  group?: boolean;
  /** A link page to a URL (SUMMARY.md `* [Title](https://...)`): its URL; `path` is its place (keyLinkPages). */
  link?: string;
  /** A link page to a page of the space (and an anchor in it): its id and anchor ('' for the page), as the server has it. */
  pageTarget?: { page: string; anchor: string };
  /** The same, by the page's path and file (resolvePageLinks): `link` is then `file#anchor`, its SUMMARY.md entry. */
  linkTo?: { path: string; file: string; anchor: string };
  /** The file a docs-as-code push made this page from, while its body is still the one made from it (servers that keep it). */
  source?: string;
  /** Where its links are in `markdown` (the server's link index, checked here): compared without parsing. */
  links?: number[];
  /** The push digest's word on the file it was pushed from (src/push-digest.ts): its SHA-256 and what its links depended on. */
  digest?: { sha: string; links: SourceLinks };
}

export interface RemoteFile {
  id: string;
  name: string;
  size: number;
  downloadURL: string;
  /** SHA-256 of its bytes, when the server says (compared by hash instead of downloaded). */
  sha?: string;
}

const FIELDS = ['description', 'emoji', 'icon', 'hidden'] as const;

export function pageFields(p: Record<string, any>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of FIELDS) if (p[k] !== undefined && p[k] !== '' && p[k] !== false) out[k] = p[k];
  return out;
}

const isDocument = (d: any) => d && typeof d === 'object' && Array.isArray(d.nodes);

export async function remoteContent(
  transport: Transport,
  spaceId: string,
  changeRequest?: string,
  /** false: without the content index (link offsets, files' hashes): the caller asks it when it needs it (indexLinks; pull writes most pages from their kept files). */
  index = true,
): Promise<{ pages: RemotePage[]; files: RemoteFile[]; keepsSources: boolean; stale: string[] }> {
  const path: Record<string, string> = changeRequest ? { spaceId, changeRequestId: changeRequest } : { spaceId };
  const listed = (await transport.call(changeRequest ? 'listPagesInChangeRequest' : 'listPages', { path })).body as { pages: any[] };
  const pages = remotePages(listed.pages, spaceId);
  // The files pages were pushed from (a `docs` server keeps them: GET /_docs/page-sources); a
  // server without that route (GitBook) gives none, and pages are written from their bodies.
  const kept = await pageSources(transport, spaceId, changeRequest);
  for (const { page } of flattenRemote(pages))
    if (!page.group && page.link === undefined && typeof kept?.sources[page.id] === 'string') page.source = kept.sources[page.id];
  // The contract's listPages need not carry each page's text (ours does; GitBook's gives the
  // tree only, or a page's `document` instead of its `markdown`): ask each page without it for
  // its markdown (format=markdown); a server that still answers a Document only gets it converted
  // (documentToMarkdown: the common blocks; others by their text), and a page with neither stops
  // the pull rather than be written empty.
  const textless = flattenRemote(pages)
    .map((x) => x.page)
    .filter((p) => typeof p.markdown !== 'string');
  let converted = 0;
  for (let i = 0; i < textless.length; i += 8) {
    await Promise.all(
      textless.slice(i, i + 8).map(async (p) => {
        const got = (
          await transport.call(changeRequest ? 'getPageInChangeRequestById' : 'getPageById', { path: { ...path, pageId: p.id }, query: { format: 'markdown' } })
        ).body as any;
        if (typeof got?.markdown === 'string') p.markdown = got.markdown;
        else if (isDocument(got?.document)) {
          p.markdown = documentToMarkdown(got.document);
          converted++;
        } else
          throw new DocsError(
            'unavailable',
            `page ${p.path} (${p.id}): the server gave neither its markdown nor its document, even with format=markdown; nothing was written for it`,
          );
      }),
    );
  }
  if (converted)
    process.stderr.write(
      `Note: the server gave ${converted} page${converted === 1 ? '' : 's'} as a Document only; converted to markdown (blocks it has no markdown for are kept as their text).\n`,
    );
  const listFiles = async (page?: string) =>
    (await transport.call(changeRequest ? 'listFilesInChangeRequestById' : 'listFiles', { path, query: { limit: 1000, ...(page ? { page } : {}) } }))
      .body as ListBody<any>;
  const files: RemoteFile[] = (await collectPages(await listFiles(), listFiles)).items.map((f: any) => ({
    id: f.id,
    name: f.name,
    size: f.size,
    downloadURL: f.downloadURL,
  }));
  if (index) await withIndex(transport, spaceId, changeRequest, pages, files);
  return { pages, files, keepsSources: !!kept, stale: kept?.stale ?? [] };
}

/** What push compares a folder with: the space's pages and files, and a way to get the bodies of those it must compare in full. */
export interface PushRemote {
  pages: RemotePage[];
  files: RemoteFile[];
  keepsSources: boolean;
  /** Fills in the markdown, link offsets and kept file of these pages (already there: nothing to do). */
  complete?: (pages: RemotePage[]) => Promise<void>;
  /**
   * Asks the server to keep the space's digest for its current tree (POST /_docs/push-digest): a
   * server with the route, for the space's own content. `kept`: the digest compared with came from
   * the one kept (nothing to ask while the tree has not moved).
   */
  keep?: () => Promise<void>;
  kept?: boolean;
}

/**
 * The space (or change request) as push needs it: from the push digest (GET /_docs/push-digest,
 * src/push-digest.ts), no markdown at all, each pushed page with its file's hash, and the bodies
 * of the pages that differ asked for afterwards (`complete`); from a server without that route
 * (GitBook's API, an older `docs`), everything, as remoteContent reads it.
 */
export async function remoteForPush(transport: Transport, spaceId: string, changeRequest?: string): Promise<PushRemote> {
  let digest: any;
  try {
    digest = (await transport.docs('GET', '/_docs/push-digest', { query: { space: spaceId, ...(changeRequest ? { changeRequest } : {}) } })).body;
  } catch (err) {
    if (err instanceof DocsError && (err.kind === 'not_found' || err.kind === 'method_not_allowed')) return remoteContent(transport, spaceId, changeRequest);
    throw err;
  }
  if (!digest || !Array.isArray(digest.pages) || !Array.isArray(digest.files)) return remoteContent(transport, spaceId, changeRequest);
  // No markdown in the digest: each page's is '' until `complete` gives it (no copy of the tree made for that).
  const pages = remotePages(digest.pages, spaceId, true);
  const files: RemoteFile[] = digest.files.map((f: any) => ({
    id: f.id,
    name: f.name,
    size: f.size,
    downloadURL: '',
    ...(typeof f.sha === 'string' && /^[0-9a-f]{64}$/.test(f.sha) ? { sha: f.sha } : {}),
  }));
  const complete = async (want: RemotePage[]) => {
    if (!want.length) return;
    // Up to 200 ids in one call (the route's bound), else every body at once.
    const bodies = want.length > 200 ? 'all' : want.map((p) => p.id).join(',');
    const got = (
      await transport.docs('GET', '/_docs/push-digest', { query: { space: spaceId, ...(changeRequest ? { changeRequest } : {}), bodies, tree: 'false' } })
    ).body as any;
    const tick = yielder();
    for (const p of want) {
      await tick();
      const b = got?.bodies?.[p.id];
      if (!b || typeof b.markdown !== 'string')
        throw new DocsError('unavailable', `page ${p.path} (${p.id}): the server gave no markdown for it; nothing was sent`);
      p.markdown = b.markdown;
      if (wellFormed(b.markdown, b.links)) p.links = b.links;
      if (typeof b.source === 'string') p.source = b.source;
    }
  };
  // Kept at the server's discretion: a server that cannot is still compared with the same tree.
  const keep =
    !changeRequest && typeof digest.kept === 'boolean'
      ? async () => {
          try {
            await transport.docs('POST', '/_docs/push-digest', { query: { space: spaceId } });
          } catch {
            // Derived data only: the next push reads the page tree again.
          }
        }
      : undefined;
  return { pages, files, keepsSources: true, complete, keep, kept: digest.kept === true };
}

/**
 * The push digest's records (src/push-digest.ts) on pages read otherwise (remoteContent), by id:
 * `docs content pull` then tells a kept file unchanged by its hash instead of parsing it. A server
 * without the route leaves them without, and each kept file is compared in full.
 */
export async function attachDigests(transport: Transport, spaceId: string, changeRequest: string | undefined, pages: RemotePage[]): Promise<void> {
  let digest: any;
  try {
    digest = (await transport.docs('GET', '/_docs/push-digest', { query: { space: spaceId, ...(changeRequest ? { changeRequest } : {}) } })).body;
  } catch (err) {
    if (err instanceof DocsError && (err.kind === 'not_found' || err.kind === 'method_not_allowed')) return;
    throw err;
  }
  if (!digest || !Array.isArray(digest.pages)) return;
  const byId = new Map<string, { sha: string; links: SourceLinks }>();
  const walk = (list: any[]) => {
    for (const p of list) {
      if (p?.source && typeof p.source.sha === 'string' && wellFormedLinks(p.source.links)) byId.set(p.id, p.source);
      if (Array.isArray(p?.pages)) walk(p.pages);
    }
  };
  walk(digest.pages);
  for (const { page } of flattenRemote(pages)) {
    const d = byId.get(page.id);
    if (d) page.digest = d;
  }
}

/** Pages as listPages gives them (or the push digest, without markdown), reduced to what push and pull compare. */
function remotePages(listed: any[], spaceId: string, textless = false): RemotePage[] {
  // A link page to a URL is an entry of SUMMARY.md, and so is one to a page of this space (and an
  // anchor in it: `inline.md#buttons`); one to anything else (a file, another space) has no form
  // in a folder, and is left as it is.
  const linkUrl = (p: any): string | undefined => (p.target?.kind === 'url' && typeof p.target.url === 'string' ? p.target.url : undefined);
  const pageTarget = (p: any): RemotePage['pageTarget'] => {
    const t = p.target;
    if ((t?.kind !== 'page' && t?.kind !== 'anchor') || typeof t.page !== 'string' || (t.space !== undefined && t.space !== spaceId)) return undefined;
    return { page: t.page, anchor: t.kind === 'anchor' && typeof t.anchor === 'string' ? t.anchor : '' };
  };
  const toPage = (p: any): RemotePage[] =>
    p.type === 'link'
      ? linkUrl(p) !== undefined
        ? [{ id: p.id, path: '', title: p.title, fields: {}, markdown: '', children: [], link: linkUrl(p) }]
        : pageTarget(p)
          ? [{ id: p.id, path: '', title: p.title, fields: {}, markdown: '', children: [], link: '', pageTarget: pageTarget(p) }]
          : []
      : [
          {
            id: p.id,
            path: p.path,
            title: p.title,
            fields: pageFields(p),
            markdown: textless ? '' : p.type === 'document' ? p.markdown : (p.markdown ?? ''),
            ...(p.source && typeof p.source.sha === 'string' && wellFormedLinks(p.source.links) ? { digest: p.source } : {}),
            children: (p.pages ?? []).flatMap(toPage),
            ...(p.type === 'group' ? { group: true } : {}),
          },
        ];
  return keyLinkPages(resolvePageLinks(listed.flatMap(toPage)));
}

/** The kept sources, and the pages whose kept source is stale (edited otherwise since); undefined: the server keeps none. */
async function pageSources(
  transport: Transport,
  spaceId: string,
  changeRequest?: string,
): Promise<{ sources: Record<string, string>; stale: string[] } | undefined> {
  try {
    const got = (await transport.docs('GET', '/_docs/page-sources', { query: { spaceId, ...(changeRequest ? { changeRequestId: changeRequest } : {}) } }))
      .body as any;
    if (!got?.sources || typeof got.sources !== 'object') return undefined;
    return { sources: got.sources, stale: Array.isArray(got.stale) ? got.stale.filter((x: unknown) => typeof x === 'string') : [] };
  } catch (err) {
    if (err instanceof DocsError && (err.kind === 'not_found' || err.kind === 'method_not_allowed')) return undefined;
    throw err;
  }
}

/**
 * The server's content index (GET /_docs/content-index, src/content-index.ts): each page's link
 * offsets and each file's SHA-256. A page's offsets are used only when the index's hash is the
 * SHA-256 of the markdown listPages gave (the same text: not a page changed in between) and
 * they are well formed; a server without the route (GitBook's API) leaves every page to be
 * parsed and every file to be downloaded, as before.
 */
export async function withIndex(transport: Transport, space: string, changeRequest: string | undefined, pages: RemotePage[], files: RemoteFile[]) {
  let index: ContentIndex | undefined;
  try {
    index = (await transport.docs('GET', '/_docs/content-index', { query: { space, ...(changeRequest ? { changeRequest } : {}) } })).body as ContentIndex;
  } catch {
    return;
  }
  if (!index || typeof index !== 'object' || typeof index.pages !== 'object' || typeof index.files !== 'object') return;
  const tick = yielder();
  for (const { page } of flattenRemote(pages)) {
    await tick();
    const got = Object.hasOwn(index.pages, page.id) ? index.pages[page.id] : undefined;
    const spans = got && typeof got.sha === 'string' ? trustedSpans(page.markdown, { sha: got.sha, spans: got.links }) : undefined;
    if (spans) page.links = spans;
  }
  for (const f of files) {
    const sha = Object.hasOwn(index.files, f.id) ? index.files[f.id] : undefined;
    if (typeof sha === 'string' && /^[0-9a-f]{64}$/.test(sha)) f.sha = sha;
  }
}

/** Every page, depth first, with its parent's id and its index among its siblings. */
export function flattenRemote(pages: RemotePage[], parent: string | null = null): { page: RemotePage; parent: string | null; index: number }[] {
  const out: { page: RemotePage; parent: string | null; index: number }[] = [];
  const walk = (list: RemotePage[], up: string | null) => {
    for (let index = 0; index < list.length; index++) {
      const page = list[index]!;
      out.push({ page, parent: up, index });
      if (page.children.length) walk(page.children, page.id);
    }
  };
  walk(pages, parent);
  return out;
}

/**
 * Link pages to a page (`pageTarget`) by the path and file of that page in `pages` (`linkTo`, and
 * `link` as `file#anchor`); one whose page is not among them (a document page of the tree) is
 * left out, as the link pages that have no form in a folder are. Again after pull gives pages
 * their local paths.
 */
export function resolvePageLinks(pages: RemotePage[]): RemotePage[] {
  const byId = new Map(flattenRemote(pages).map((x) => [x.page.id, x.page]));
  const walk = (list: RemotePage[]): RemotePage[] =>
    list.filter((p) => {
      if (p.pageTarget) {
        const to = byId.get(p.pageTarget.page);
        if (!to || to.group || to.link !== undefined) return false;
        const file = pageFile(to.path, to.children.length > 0);
        p.linkTo = { path: to.path, file, anchor: p.pageTarget.anchor };
        p.link = `${file}#${p.pageTarget.anchor}`;
        return true;
      }
      p.children = walk(p.children);
      return true;
    });
  return walk(pages);
}
