import { markdownToDocument } from '../documents/markdown.js';
import type { Caller, Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { visibleSpace } from '../spaces/service.js';
import { purgeIfExpired } from '../space-expiry.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { ReadTx } from '../store/port.js';
import { ensureDownloadSecret } from './downloads.js';
import { contentRowId, type ContentRevision } from './model.js';
import { type ChildPage, markdownBody, presentChildren, presentFile, presentPage, revisionPages } from './present.js';
import { markdownOf, readRevision, treeOf } from './revisions.js';
import { flatten, type Located } from './tree.js';
import { PageContents } from './tables.js';

// The content of any revision of a space by its id (revisions are immutable: what a space showed
// at that point), in the shapes of the space's own content routes. Revision ids are handed out
// everywhere (merges, change requests, history); these routes make each one readable.

/** A page path as the router hands it over (already decoded), without leading or trailing slashes. */
export function wantedPath(pagePath: string): string {
  let p = pagePath;
  // In-process callers may still pass it encoded (guide%2Fsetup); a stray % is a literal.
  try {
    p = decodeURIComponent(p);
  } catch {
    // not percent-encoding: as given
  }
  return p.replace(/^\/+|\/+$/g, '');
}

/** A page of a revision and its children, as the page routes answer it (markdown, or a Document with format=document). */
export async function pageAnswer(ctx: Context, found: { space: SpaceRecord; l: Located; markdown: string; children: ChildPage[] }, format: unknown) {
  const doc = format === 'document' ? await markdownToDocument(found.markdown) : undefined;
  const page = presentPage(ctx, found.space, found.l.node, found.l.path, () => (doc ? { document: doc } : { markdown: found.markdown }), false);
  if (page.type !== 'link') page.pages = found.children;
  return { status: 200, body: page };
}

/** What the page routes need of one located page: its markdown and its children with theirs. */
export function foundPage(ctx: Context, tx: ReadTx, space: SpaceRecord, l: Located) {
  return {
    space,
    l,
    markdown: markdownOf(tx, space.id, l.node),
    children: presentChildren(ctx, space, l.node.pages, l.path, markdownBody(tx, space.id)),
  };
}

/** A revision's files as the file lists answer them: by name (then id), a page of them. */
export function filesPage(ctx: Context, space: SpaceRecord, rev: ContentRevision, query: Record<string, unknown>) {
  const files = [...(rev.files ?? [])].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  return paginate(files, query, (f) => presentFile(ctx, space, f));
}

function ofRevision(tx: ReadTx, caller: Caller, spaceId: string, revisionId: string): { space: SpaceRecord; rev: ContentRevision } {
  const { row: space } = visibleSpace(tx, caller, spaceId);
  return { space, rev: readRevision(tx, space.id, revisionId) };
}

export const listPagesInRevisionById = defineOperation('listPagesInRevisionById', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  return ctx.store.read((tx) => {
    const { space, rev } = ofRevision(tx, caller, path.spaceId, path.revisionId);
    return { status: 200, body: { pages: revisionPages(ctx, tx, space, rev) } };
  });
});

async function pageInRevision(
  ctx: Context,
  caller: Caller,
  path: Record<string, string>,
  query: Record<string, unknown>,
  pick: (l: Located) => boolean,
  what: string,
) {
  await purgeIfExpired(ctx, path.spaceId!);
  const found = await ctx.store.read((tx) => {
    const { space, rev } = ofRevision(tx, caller, path.spaceId!, path.revisionId!);
    const l = flatten(treeOf(tx, rev)).find(pick);
    if (!l) throw notFound(`${what} not found in revision ${path.revisionId}`);
    return foundPage(ctx, tx, space, l);
  });
  return pageAnswer(ctx, found, query.format);
}

export const getPageInRevisionById = defineOperation('getPageInRevisionById', ({ ctx, caller, path, query }) =>
  pageInRevision(ctx, caller, path, query, (l) => l.node.id === path.pageId, `page ${path.pageId}`),
);

export const getPageInRevisionByPath = defineOperation('getPageInRevisionByPath', ({ ctx, caller, path, query }) => {
  const want = wantedPath(path.pagePath);
  return pageInRevision(ctx, caller, path, query, (l) => l.path === want && l.node.type !== 'link', `page at path ${want}`);
});

export const listFilesInRevisionById = defineOperation('listFilesInRevisionById', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => {
    const { space, rev } = ofRevision(tx, caller, path.spaceId, path.revisionId);
    return { status: 200, body: filesPage(ctx, space, rev, query) };
  });
});

export const getFileInRevisionById = defineOperation('getFileInRevisionById', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => {
    const { space, rev } = ofRevision(tx, caller, path.spaceId, path.revisionId);
    const f = (rev.files ?? []).find((x) => x.id === path.fileId);
    if (!f) throw notFound(`file ${path.fileId} not found in revision ${path.revisionId}`);
    return { status: 200, body: presentFile(ctx, space, f) };
  });
});

/** The page's Document alone (built from its markdown, as format=document does; `evaluated` changes nothing: nothing here is computed). */
export const getPageDocumentInRevisionById = defineOperation('getPageDocumentInRevisionById', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const markdown = await ctx.store.read((tx) => {
    const { space, rev } = ofRevision(tx, caller, path.spaceId, path.revisionId);
    const l = flatten(treeOf(tx, rev)).find((x) => x.node.id === path.pageId);
    if (l?.node.type !== 'document') throw notFound(`page ${path.pageId} ${l ? 'has no document' : 'not found'} in revision ${path.revisionId}`);
    return markdownOf(tx, space.id, l.node);
  });
  return { status: 200, body: await markdownToDocument(markdown) };
});

/**
 * GET /spaces/{spaceId}/documents/{documentId}: a page body by the `documentId` pages carry. Bodies
 * are kept once per space by the hash of their markdown (src/content/revisions.ts `putMarkdown`),
 * so any body the space ever had (a past revision, a change request) is found, and only in its
 * own space: the id is looked up under this space's prefix, whatever it holds.
 */
export const getDocumentById = defineOperation('getDocumentById', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const markdown = await ctx.store.read((tx) => {
    const { row: space } = visibleSpace(tx, caller, path.spaceId);
    const row = /^[0-9a-f]{64}$/.test(path.documentId) ? tx.get(PageContents, contentRowId(space.id, path.documentId)) : undefined;
    if (!row || row.space !== space.id) throw notFound(`document ${path.documentId} not found in space ${path.spaceId}`);
    return row.markdown;
  });
  return { status: 200, body: await markdownToDocument(markdown) };
});

/** A page's meta links (docs/manual/content.md#meta-links): `{}` when it has none; a link page has none. */
export function metaLinksAnswer(tree: Parameters<typeof flatten>[0], pageId: string, where: string) {
  const l = flatten(tree).find((x) => x.node.id === pageId);
  if (!l) throw notFound(`page ${pageId} not found in ${where}`);
  return { status: 200 as const, body: l.node.metaLinks ?? {} };
}

export const listRevisionPageMetaLinks = defineOperation('listRevisionPageMetaLinks', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  return ctx.store.read((tx) => {
    const { rev } = ofRevision(tx, caller, path.spaceId, path.revisionId);
    return metaLinksAnswer(treeOf(tx, rev), path.pageId, `revision ${path.revisionId}`);
  });
});
