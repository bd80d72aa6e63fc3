import { presentChangeRequest } from '../change-requests/present.js';
import { readChangeRequest } from '../change-requests/service.js';
import { markdownToDocument } from '../documents/markdown.js';
import { apiUrl, type Caller, type Context } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { presentedBefore, presentOnce, type Presented } from '../kernel/serialized.js';
import { listSpaces, visibleSpace } from '../spaces/service.js';
import { purgeIfExpired } from '../space-expiry.js';
import type { ReadTx } from '../store/port.js';
import { contentAccess } from '../tree/access.js';
import { applyChanges, applyTemplateToChangeRequest } from '../change-requests/authoring.js';
import type { UploadedFile } from './authoring.js';
import { imageDimensions, writeBlob } from './blobs.js';
import { CONTROL_CHARS, ensureDownloadSecret, SERVABLE_TYPE } from './downloads.js';
import { loadParser } from './link-refs.js';
import { FILE_NAME_RULE, fileNameProblem } from './safe-names.js';
import { backlinks, linkItems } from './links.js';
import { applyTemplate } from './templates.js';
import type { ContentRevision, PageNode } from './model.js';
import { markdownBody, pageLocation, presentChildren, presentFile, presentPage, presentRevision, revisionPages } from './present.js';
import { currentRevision, markdownOf, readRevision, sha256, treeOf } from './revisions.js';
import { rankOrganization, searchSpace, type SearchHit } from '../search/service.js';
import { flatten } from './tree.js';
import { filesPage, foundPage, metaLinksAnswer, pageAnswer, wantedPath } from './revision-content.js';
import { ChangeRequests } from '../change-requests/tables.js';
import { Revisions, Spaces } from '../spaces/tables.js';

// The change request's file, page by path, links and backlinks (the content area's module for them).
export * from './change-request-content.js';
// Any revision's pages and files by the revision's id.
export * from './revision-content.js';
// Reusable content blocks (docs/manual/reusable-content.md).
export * from './reusable-content.js';

const MAX_FILE_BYTES = 1024 * 1024;

/** The space (visible to the caller) and its current revision. */
function current(tx: ReadTx, caller: Caller, spaceId: string) {
  const { row } = visibleSpace(tx, caller, spaceId);
  return { space: row, rev: currentRevision(tx, row) };
}

const mergedFromOf = (ctx: Context, tx: ReadTx, rev: ContentRevision, org: string) => {
  if (rev.type !== 'merge' || !rev.mergedFrom) return undefined;
  const cr = tx.get(ChangeRequests, rev.mergedFrom);
  return cr ? presentChangeRequest(ctx, tx, cr, org) : undefined;
};

export const getCurrentRevision = defineOperation('getCurrentRevision', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => {
    const { space, rev } = current(tx, caller, path.spaceId);
    return { status: 200, body: presentRevision(ctx, tx, space, rev, query.metadata !== false, mergedFromOf(ctx, tx, rev, space.organization)) };
  });
});

export const getRevisionById = defineOperation('getRevisionById', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => {
    const { row: space } = visibleSpace(tx, caller, path.spaceId);
    const rev = readRevision(tx, space.id, path.revisionId);
    return { status: 200, body: presentRevision(ctx, tx, space, rev, query.metadata !== false, mergedFromOf(ctx, tx, rev, space.organization)) };
  });
});

export const listPages = defineOperation('listPages', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  return ctx.store.read((tx) => {
    const { space, rev } = current(tx, caller, path.spaceId);
    return { status: 200, body: { pages: revisionPages(ctx, tx, space, rev) } };
  });
});

/** One page, its body as markdown (default) or as a Document built from the markdown. */
async function showPage(
  ctx: Context,
  caller: Caller,
  spaceId: string,
  query: any,
  pick: (tree: readonly PageNode[]) => ReturnType<typeof flatten>[number] | undefined,
  what: string,
) {
  await purgeIfExpired(ctx, spaceId);
  const found = await ctx.store.read((tx) => {
    const { space, rev } = current(tx, caller, spaceId);
    const l = pick(treeOf(tx, rev));
    if (!l) throw notFound(`${what} not found in space ${spaceId}`);
    return { space, l, markdown: markdownOf(tx, spaceId, l.node) };
  });
  const doc = query.format === 'document' ? await markdownToDocument(found.markdown) : undefined;
  const body = doc ? () => ({ document: doc }) : () => ({ markdown: found.markdown });
  // Children are listed with their own bodies only as markdown: the Document is for this page.
  const page = presentPage(ctx, found.space, found.l.node, found.l.path, body, false);
  if (page.type !== 'link')
    page.pages = await ctx.store.read((tx) => presentChildren(ctx, found.space, found.l.node.pages, found.l.path, markdownBody(tx, spaceId)));
  return { status: 200, body: page };
}

export const getPageById = defineOperation('getPageById', ({ ctx, caller, path, query }) =>
  showPage(ctx, caller, path.spaceId, query, (tree) => flatten(tree).find((l) => l.node.id === path.pageId), `page ${path.pageId}`),
);

export const getPageByPath = defineOperation('getPageByPath', ({ ctx, caller, path, query }) => {
  const want = wantedPath(path.pagePath);
  return showPage(ctx, caller, path.spaceId, query, (tree) => flatten(tree).find((l) => l.path === want && l.node.type !== 'link'), `page at path ${want}`);
});

export const listFiles = defineOperation('listFiles', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => {
    const { space, rev } = current(tx, caller, path.spaceId);
    return { status: 200, body: filesPage(ctx, space, rev, query) };
  });
});

export const getFileById = defineOperation('getFileById', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => {
    const { space, rev } = current(tx, caller, path.spaceId);
    const f = (rev.files ?? []).find((x) => x.id === path.fileId);
    if (!f) throw notFound(`file ${path.fileId} not found in space ${path.spaceId}`);
    return { status: 200, body: presentFile(ctx, space, f) };
  });
});

/** Decodes and stores the bytes of every insert_files change before the (synchronous) write. */
async function prepareUploads(ctx: Context, changes: any[]): Promise<Map<number, UploadedFile[]>> {
  const out = new Map<number, UploadedFile[]>();
  // Names and types end up in download headers (server/downloads.ts): no control characters;
  // names also become paths on disk (docs content pull): safe path segments only.
  // Checked for every file before any bytes are stored, so a refused request leaves no blob.
  for (const [i, c] of changes.entries()) {
    if (c.operation !== 'insert_files') continue;
    for (const [j, f] of c.files.entries()) {
      if (CONTROL_CHARS.test(f.name)) throw invalid(`changes[${i}].files[${j}].name: control characters are not allowed in a file name`);
      // Names become paths when a space is pulled to a folder (safe-names.ts).
      const bad = fileNameProblem(f.name);
      if (bad) throw invalid(`changes[${i}].files[${j}].name: ${JSON.stringify(f.name)} is not a safe file name (${bad}); a file name is ${FILE_NAME_RULE}`);
      if (f.contentType !== undefined && !SERVABLE_TYPE.test(f.contentType))
        throw invalid(`changes[${i}].files[${j}].contentType: must be printable ASCII (no control characters)`);
    }
  }
  for (const [i, c] of changes.entries()) {
    if (c.operation !== 'insert_files') continue;
    const list: UploadedFile[] = [];
    for (const [j, f] of c.files.entries()) {
      const where = `changes[${i}].files[${j}]`;
      let bytes: Buffer;
      let contentType: string | undefined = f.contentType;
      if (f.url !== undefined) {
        // Through the same guard as OpenAPI sources (src/openapi/fetch.ts): http(s) only, public
        // addresses only unless DOCS_FETCH_ALLOW_PRIVATE=1, bounded redirects, timeout, 1 MB cap.
        const { guardedFetchBytes, fetchLimits, FetchFailure } = await import('../openapi/fetch.js');
        try {
          const got = await guardedFetchBytes(f.url, { limits: { ...fetchLimits(), maxBytes: MAX_FILE_BYTES } });
          bytes = got.bytes;
          contentType ??= got.contentType ?? 'application/octet-stream';
        } catch (err) {
          if (err instanceof FetchFailure) throw invalid(`${where}.url: ${err.message}`);
          throw err;
        }
      } else {
        if (!contentType) throw invalid(`${where}.contentType: required with base64`);
        if (!/^[A-Za-z0-9+/=\s]*$/.test(f.base64)) throw invalid(`${where}.base64: not valid base64`);
        bytes = Buffer.from(f.base64, 'base64');
        if (bytes.length > MAX_FILE_BYTES) throw invalid(`${where}.base64: must be at most 1 MB of bytes (got ${bytes.length})`);
      }
      if (!SERVABLE_TYPE.test(contentType!)) throw invalid(`${where}.contentType: must be printable ASCII (no control characters)`);
      const f2 = { ...f, contentType: contentType! };
      const sha = sha256(bytes);
      await writeBlob(ctx, sha, bytes);
      const dims = f2.contentType.startsWith('image/') ? imageDimensions(bytes) : undefined;
      list.push({
        ...(f.ref !== undefined ? { ref: f.ref } : {}),
        name: f.name,
        contentType: f2.contentType,
        size: bytes.length,
        sha,
        ...(dims ? { dimensions: dims } : {}),
      });
    }
    out.set(i, list);
  }
  return out;
}

export const updateChangeRequestContent = defineOperation('updateChangeRequestContent', async ({ ctx, caller, path, query, body }) => {
  await purgeIfExpired(ctx, path.spaceId);
  // Bytes are written (durably, content addressed) before the revision that names them.
  await ctx.store.read((tx) => visibleSpace(tx, caller, path.spaceId));
  const uploads = await prepareUploads(ctx, body.changes);
  const parse = await loadParser();
  await ensureDownloadSecret(ctx);
  const res = await ctx.store.write((tx) => applyChanges(tx, ctx, caller, path.spaceId, path.changeRequestId, body.changes, uploads, parse));
  return ctx.store.read((tx) => {
    const space = tx.get(Spaces, path.spaceId)!; // the write above found it
    const cr = presentChangeRequest(ctx, tx, res.cr, space.organization);
    if (query.compat !== false) return { status: 200, body: cr };
    // A reusable content block's outcome locates the block (docs/manual/reusable-content.md#writing-it).
    const blocks = new Set((tx.get(Revisions, res.cr.revision)?.reusable ?? []).map((b) => b.id));
    const location = (id: string) =>
      blocks.has(id)
        ? apiUrl(ctx, `/spaces/${path.spaceId}/change-requests/${res.cr.id}/content/reusable-contents/${id}`)
        : pageLocation(ctx, path.spaceId, id);
    const ref = (id: string) => ({ object: 'page' as const, id, urls: { location: location(id) } });
    return {
      status: 200,
      body: {
        changeRequest: cr,
        changes: res.outcomes.map((o) => (o.object === 'deleted_page' ? o : { ...o, page: ref(o.page) })),
        insertedFiles: res.inserted.map((f) => presentFile(ctx, space, f)),
      },
    };
  });
});

// Search. `query` is required by this server (API.md), at most 512 (the contract checks that).
export const requireQuery = (q: unknown): string => {
  const s = typeof q === 'string' ? q.trim() : '';
  if (!s) throw invalid('query: required, 1 to 512 characters');
  return s;
};

export const presentHit = (ctx: Context, space: { id: string; organization: string }, h: SearchHit) => {
  const app = `${ctx.baseUrl}/o/${space.organization}/s/${space.id}/${h.path}`;
  return {
    id: h.page,
    title: h.title,
    description: h.description,
    path: h.path,
    score: h.score,
    rank: h.rank,
    sections: h.sections.map((s) => ({
      id: s.id,
      title: s.title,
      path: s.anchor ? `${h.path}#${s.anchor}` : h.path,
      score: s.score,
      body: s.snippet(),
      urls: { app: s.anchor ? `${app}#${s.anchor}` : app },
    })),
    ancestors: h.ancestors.map((a) => ({ id: a.id, title: a.title })),
    urls: { app },
  };
};

export const searchSpaceContent = defineOperation('searchSpaceContent', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const q = requireQuery(query.query);
  paginate([], query); // a bad limit or cursor is a 400 before any work
  const { space } = await ctx.store.read((tx) => current(tx, caller, path.spaceId));
  // The index is brought to the current revision first (changed pages re-indexed, in slices).
  const found = await searchSpace(ctx, space, q);
  const page = paginate(found.pages, query);
  const hits = await found.hits(page.items);
  return { status: 200, body: { ...page, items: hits.map((h) => presentHit(ctx, space, h)) } };
});

// The best hits across the caller's spaces: one ranked query on the organization's index
// (bounded: its best sections), spaces ordered by their best page.
export const searchOrganizationContent = defineOperation('searchOrganizationContent', async ({ ctx, caller, path, query }) => {
  const q = requireQuery(query.query);
  paginate([], query);
  // The caller's spaces as the organization's summary lists them (id, revision): what ranking
  // needs. Their whole rows (title) are read for the spaces of the page presented only: reading
  // the rows of 2,000 spaces was most of a repeated search's time at 200,000 pages (~10 ms).
  const entries = await ctx.store.read((tx) => {
    contentAccess(tx, path.organizationId, caller, `organization ${path.organizationId}`);
    return listSpaces(tx, caller, path.organizationId).map(({ row }) => row);
  });
  // Ranked first; the text (titles, snippets) read for the spaces of the page presented only.
  const found = await rankOrganization(ctx, path.organizationId, entries, q);
  const page = paginate(found.groups, query);
  // A query asked again while the index holds the same rows gets the same ranking object: its
  // answer's JSON is made once (130 KB at 200,000 pages, ~1.5 ms to serialize) and written again,
  // unless what else the answer shows differs (the page asked, the spaces' titles, the address).
  // Its hits are not even built again (hundreds of them: most of a repeated search's time), nor,
  // while no commit came since the last answer of that page (a rename is one), the rows of its
  // spaces read again (100 spaces' shards).
  const asked = JSON.stringify([ctx.baseUrl, query.limit ?? null, query.page ?? null]);
  const generation = found.ranking ? ctx.store.generation?.() : undefined;
  const last = generation === undefined ? undefined : shownKeys.get(found.ranking!)?.get(asked);
  const kept = last && last.generation === generation ? presentedBefore(searchAnswers, found.ranking!, last.key) : undefined;
  if (kept) return { status: 200, body: kept as ReturnType<typeof present> };
  const rows = await ctx.store.read((tx) => new Map(page.items.map((g) => [g.space.id, tx.get(Spaces, g.space.id)])));
  const key = found.ranking ? JSON.stringify([asked, page.items.map((g) => [g.space.id, rows.get(g.space.id)?.title ?? null])]) : '';
  if (generation !== undefined) {
    let keys = shownKeys.get(found.ranking!);
    if (!keys || keys.size >= 16) shownKeys.set(found.ranking!, (keys = new Map()));
    keys.set(asked, { generation, key });
  }
  const again = found.ranking && presentedBefore(searchAnswers, found.ranking, key);
  if (again) return { status: 200, body: again as ReturnType<typeof present> };
  const shown = await found.hits(page.items);
  function present() {
    return {
      ...page,
      items: shown.flatMap((r) => {
        const space = rows.get(r.space.id);
        // Purged since the list was read (another request's commit in between): left out.
        if (!space) return [];
        return [{ type: 'space' as const, id: space.id, title: space.title, score: r.score, pages: r.hits.map((h) => presentHit(ctx, space, h)) }];
      }),
    };
  }
  if (!found.ranking) return { status: 200, body: present() };
  return { status: 200, body: presentOnce(searchAnswers, found.ranking, key, present) };
});
/** The JSON of the last answer presented from each organization search's ranking (`presentOnce`). */
const searchAnswers = new WeakMap<object, Presented>();
/** Per ranking and page asked: the key of its last answer, and the store's generation the rows of its spaces were read at. */
const shownKeys = new WeakMap<object, Map<string, { generation: number; key: string }>>();

// Links and backlinks of the current revision.
export const listSpaceLinks = defineOperation('listSpaceLinks', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const parse = await loadParser();
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => linksBody(linkItems(ctx, tx, caller, parse, path.spaceId), query));
});

export const listPageLinksInSpace = defineOperation('listPageLinksInSpace', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const parse = await loadParser();
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => linksBody(linkItems(ctx, tx, caller, parse, path.spaceId, path.pageId), query));
});

/** `stats` count every link of the scope; `status` filters the items only. */
function linksBody(all: ReturnType<typeof linkItems>, query: any) {
  const items = query.status ? all.items.filter((i) => i.status === query.status) : all.items;
  return { status: 200, body: { ...paginate(items, query), stats: all.stats } };
}

export const listSpaceFileBacklinks = defineOperation('listSpaceFileBacklinks', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const parse = await loadParser();
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => ({ status: 200, body: paginate(backlinks(ctx, tx, caller, parse, path.spaceId, { file: path.fileId }), query) }));
});

export const listSpacePageBacklinks = defineOperation('listSpacePageBacklinks', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const parse = await loadParser();
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => ({ status: 200, body: paginate(backlinks(ctx, tx, caller, parse, path.spaceId, { page: path.pageId }), query) }));
});

export const applyTemplateToSpace = defineOperation(
  'applyTemplateToSpace',
  async ({ ctx, caller, path, body }) => {
    const changeRequestId = body.changeRequestId;
    if (changeRequestId !== undefined && typeof changeRequestId !== 'string') throw invalid('body.changeRequestId: must be a string');
    await purgeIfExpired(ctx, path.spaceId);
    const parse = await loadParser();
    await ctx.store.write((tx) =>
      changeRequestId !== undefined
        ? applyTemplateToChangeRequest(tx, ctx, caller, path.spaceId, changeRequestId, body, parse)
        : applyTemplate(tx, ctx, caller, path.spaceId, body, parse),
    );
    return { status: 201 };
  },
  // API.md's optional `changeRequestId` (in the contract from 0.167.0 on, not in the pinned 0.146.0).
  { extraBodyFields: ['changeRequestId'] },
);

// The content of a change request (its own revision): the same shapes as the space's routes.
// The change-request area owns the rest of these routes; pull and review need these.
function ofChangeRequest(tx: ReadTx, caller: Caller, spaceId: string, crId: string) {
  const { space, cr } = readChangeRequest(tx, caller, spaceId, crId);
  return { space, rev: readRevision(tx, spaceId, cr.revision) };
}

export const getRevisionOfChangeRequestById = defineOperation('getRevisionOfChangeRequestById', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => {
    const { space, rev } = ofChangeRequest(tx, caller, path.spaceId, path.changeRequestId);
    return { status: 200, body: presentRevision(ctx, tx, space, rev, query.metadata !== false, mergedFromOf(ctx, tx, rev, space.organization)) };
  });
});

export const listPagesInChangeRequest = defineOperation('listPagesInChangeRequest', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  return ctx.store.read((tx) => {
    const { space, rev } = ofChangeRequest(tx, caller, path.spaceId, path.changeRequestId);
    return { status: 200, body: { pages: revisionPages(ctx, tx, space, rev) } };
  });
});

export const listFilesInChangeRequestById = defineOperation('listFilesInChangeRequestById', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => {
    const { space, rev } = ofChangeRequest(tx, caller, path.spaceId, path.changeRequestId);
    return { status: 200, body: filesPage(ctx, space, rev, query) };
  });
});

export const getPageInChangeRequestById = defineOperation('getPageInChangeRequestById', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const found = await ctx.store.read((tx) => {
    const { space, rev } = ofChangeRequest(tx, caller, path.spaceId, path.changeRequestId);
    const l = flatten(treeOf(tx, rev)).find((x) => x.node.id === path.pageId);
    if (!l) throw notFound(`page ${path.pageId} not found in change request ${path.changeRequestId}`);
    return foundPage(ctx, tx, space, l);
  });
  return pageAnswer(ctx, found, query.format);
});
export { generateStorageUploadURL } from './storage-operations.js';

// A page's meta links, in the space, a change request (above) and a revision (revision-content.ts).
export const listSpacePageMetaLinks = defineOperation('listSpacePageMetaLinks', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  return ctx.store.read((tx) => {
    const { rev } = current(tx, caller, path.spaceId);
    return metaLinksAnswer(treeOf(tx, rev), path.pageId, `space ${path.spaceId}`);
  });
});

export const listChangeRequestPageMetaLinks = defineOperation('listChangeRequestPageMetaLinks', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  return ctx.store.read((tx) => {
    const { rev } = ofChangeRequest(tx, caller, path.spaceId, path.changeRequestId);
    return metaLinksAnswer(treeOf(tx, rev), path.pageId, `change request ${path.changeRequestId}`);
  });
});
