import type { Schema } from '../contract/types.js';
import { apiUrl, type Context } from '../kernel/context.js';
import { spaceUrls } from '../spaces/present.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { ReadTx } from '../store/port.js';
import { contentRowId, type ContentRevision, type FileEntry, type PageNode, type ReusableEntry } from './model.js';
import { PageContents } from './tables.js';
import { markdownOf, treeOf } from './revisions.js';
import { flatten } from './tree.js';
import { fileDownloadUrl } from './downloads.js';

// Pages, files and revisions as the contract shapes them. Document pages carry their body as
// `markdown` (the stored source) or, with format=document, as a Document built from it; the
// contract requires one of the two on every document page, lists included.

// Every page is laid out the same (the published site has no per-page layout options): the
// flags say what the renderer shows. `coverMask: 'none'` (covers are not masked), `tags` (no
// tags to show: `docs` has no tags, docs/manual/contract.md#the-newest-spec-is-part-of-the-contract), `actions` (the page-actions menu the
// site's customization configures), `anchors` (headings carry anchor links).
const LAYOUT = {
  width: 'default',
  cover: true,
  coverSize: 'full',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: false,
  actions: true,
  anchors: true,
} as const;

export type Body = (node: PageNode) => { markdown: string } | { document: unknown };

export const markdownBody =
  (tx: ReadTx, space: string): Body =>
  (node) => ({ markdown: markdownOf(tx, space, node) });

/** A page as both specs shape it (a computed page is never stored, so never presented). */
export type PresentedPage = Schema<'RevisionPageDocument'> | Schema<'RevisionPageGroup'> | Schema<'RevisionPageLink'>;
/** What a page's or a group's `pages` may hold in both specs: no group below the top level. */
export type ChildPage = Schema<'RevisionPageDocument'> | Schema<'RevisionPageLink'>;

export function presentPage(ctx: Context, space: SpaceRecord, node: PageNode, path: string, body: Body, deep = true): PresentedPage {
  presentWork.pages++;
  const app = `${ctx.baseUrl}/o/${space.organization}/s/${space.id}/${path}`;
  const common = () => ({
    id: node.id,
    title: node.title,
    ...(node.emoji ? { emoji: node.emoji } : {}),
    ...(node.icon ? { icon: node.icon } : {}),
    createdAt: node.createdAt,
    updatedAt: node.updatedAt,
  });
  const children = () => (deep ? presentChildren(ctx, space, node.pages, path, body) : []);
  if (node.type === 'link')
    return {
      ...common(),
      kind: 'link',
      type: 'link',
      target: node.target ?? { kind: 'url', url: node.href ?? '' },
      ...(node.href ? { href: node.href } : {}),
      ...(node.hidden ? { hidden: true } : {}),
    };
  if (node.type === 'group')
    return {
      ...common(),
      kind: 'group',
      type: 'group',
      slug: node.slug,
      path,
      hidden: !!node.hidden,
      noIndex: !!node.noIndex,
      noRobotsIndex: !!node.noRobotsIndex,
      pages: children(),
    };
  // Built property by property in the answer's order, not as a literal spreading `common` and the
  // body: on Node 20 each property named after such a spread cost ~1.2 µs and a new map, and a
  // content read of 100 pages allocated 1.17 MB (7× its JSON; 0.55 MB so), garbage a busy
  // server's old space holds until a mark-compact (docs/manual/performance.md, "At scale"). Link
  // and group pages, a few a space, keep the literal.
  // Its shape is checked where answers are, against both specs (the types' unions of body forms
  // admit no partial object to build up).
  const page: Record<string, unknown> = { id: node.id, title: node.title };
  if (node.emoji) page.emoji = node.emoji;
  if (node.icon) page.icon = node.icon;
  page.createdAt = node.createdAt;
  page.updatedAt = node.updatedAt;
  page.kind = 'sheet';
  page.type = 'document';
  const b = body(node);
  if ('markdown' in b) page.markdown = b.markdown;
  else page.document = b.document;
  page.urls = { app };
  page.slug = node.slug;
  page.path = path;
  if (node.description) page.description = node.description;
  page.pages = children();
  page.layout = LAYOUT;
  page.tags = []; // `docs` has no page tags (docs/manual/contract.md#the-newest-spec-is-part-of-the-contract)
  page.hidden = !!node.hidden;
  page.noIndex = !!node.noIndex;
  page.noRobotsIndex = !!node.noRobotsIndex;
  if (node.content) page.documentId = node.content;
  return page as unknown as Schema<'RevisionPageDocument'>;
}

/**
 * The subpages of a page or group. Authoring keeps groups at the top level (both specs allow no
 * group below it); a group nested by a store written before that rule is presented as its pages, in
 * its place, so the answer stays valid and no page disappears.
 */
export function presentChildren(ctx: Context, space: SpaceRecord, pages: readonly PageNode[], parentPath: string, body: Body): ChildPage[] {
  return pages.flatMap((c): ChildPage[] => {
    const path = `${parentPath}/${c.slug}`;
    if (c.type === 'group') return presentChildren(ctx, space, c.pages, path, body);
    const p = presentPage(ctx, space, c, path, body);
    return p.type === 'group' ? [] : [p];
  });
}

export function presentPages(ctx: Context, space: SpaceRecord, pages: readonly PageNode[], body: Body) {
  return pages.map((p) => presentPage(ctx, space, p, p.slug, body));
}

export function presentFile(ctx: Context, space: SpaceRecord, f: FileEntry): Schema<'RevisionFile'> {
  return {
    id: f.id,
    name: f.name,
    contentType: f.contentType,
    downloadURL: fileDownloadUrl(ctx, space.id, f),
    size: f.size,
    ...(f.dimensions ? { dimensions: f.dimensions } : {}),
  };
}

/** Pages presented (tests: a read presents its pages once, src/store/shard-store.ts `run` runs it again). */
export const presentWork = { pages: 0 };

/** A space's bodies group is read whole by `revisionPages` when it holds at most this many rows a document page. */
const BODIES_WHOLE = 2;

/**
 * The pages of a revision, with their bodies. Each body is looked up before any page is
 * presented, and none is presented in a run that reached a shard not loaded yet: the store loads
 * what the run missed, runs the read again and drops that run's answer (src/store/shard-store.ts
 * `run`). A fresh server's first read of a space's content presented its pages three times, two
 * of them for nothing: without the bodies' group index, then without the segments its filters
 * named (docs/manual/performance.md, "First requests").
 */
export function revisionPages(ctx: Context, tx: ReadTx, space: SpaceRecord, rev: ContentRevision): PresentedPage[] {
  // The bodies' group index, asked for before the tree so that a first read loads it with the
  // nodes' (a load round fewer, and each round runs the read again).
  const inGroup = tx.groupRows?.(PageContents, contentRowId(space.id, ''));
  const tree = treeOf(tx, rev);
  const documents: PageNode[] = [];
  const collect = (pages: readonly PageNode[]) => {
    for (const p of pages) {
      if (p.type !== 'link' && p.type !== 'group') documents.push(p);
      collect(p.pages);
    }
  };
  collect(tree);
  // A group of about the bodies wanted (not many older ones beside them) is read whole, in one
  // round, rather than segment by segment through its filters: a first read of 200 pages looked
  // up each body through the filters in a run that then loaded the segments and ran again.
  if (inGroup !== undefined && inGroup <= BODIES_WHOLE * documents.length) {
    tx.wholeGroup?.(PageContents, contentRowId(space.id, ''));
    if (tx.settled?.() === false) return [];
  }
  const bodies = new Map<PageNode, string>();
  for (const p of documents) bodies.set(p, markdownOf(tx, space.id, p));
  if (tx.settled?.() === false) return [];
  return presentPages(ctx, space, tree, (node) => ({ markdown: bodies.get(node) ?? markdownOf(tx, space.id, node) }));
}

export function presentRevision(
  ctx: Context,
  tx: ReadTx,
  space: SpaceRecord,
  rev: ContentRevision,
  metadata = true,
  mergedFrom?: Schema<'ChangeRequest'>,
): Schema<'Revision'> {
  const urls = spaceUrls(ctx, space);
  const base = {
    object: 'revision' as const,
    id: rev.id,
    parents: rev.parents,
    pages: revisionPages(ctx, tx, space, rev),
    files: (rev.files ?? []).map((f) => presentFile(ctx, space, f)),
    reusableContents: (rev.reusable ?? []).map(presentReusableContent),
    tags: [], // no tags concept: none are available (docs/manual/contract.md#the-newest-spec-is-part-of-the-contract)
    createdAt: rev.createdAt,
    ...(metadata && rev.message ? { git: { oid: rev.id, message: rev.message, createdByGitBook: true } } : {}),
    urls: {
      app: `${urls.app}/~/revisions/${rev.id}`,
      ...(urls.published ? { published: urls.published } : {}),
      ...(urls.public ? { public: urls.public } : {}),
    },
  };
  // A merge names its change request (the contract requires it); one deleted since is left out
  // (docs/manual/contract.md#what-the-types-found).
  return rev.type === 'merge' ? { ...base, type: 'merge' as const, mergedFrom: mergedFrom as Schema<'ChangeRequest'> } : { ...base, type: rev.type };
}

/** A reusable content block as RevisionReusableContent: its `document` is the body's id (getDocumentById). */
export const presentReusableContent = (b: ReusableEntry) => ({ id: b.id, title: b.title, document: b.content });

export const pageLocation = (ctx: Context, space: string, page: string) => apiUrl(ctx, `/spaces/${space}/content/page/${page}`);
export { flatten };
