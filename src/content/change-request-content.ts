import { baseOf } from '../change-requests/model.js';
import { presentChangeRequest } from '../change-requests/present.js';
import { readChangeRequest } from '../change-requests/service.js';
import type { Caller, Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { purgeIfExpired } from '../space-expiry.js';
import type { ReadTx } from '../store/port.js';
import { ensureDownloadSecret } from './downloads.js';
import { loadParser } from './link-refs.js';
import { backlinks, brokenKeys, linkItems, type ContentVersion } from './links.js';
import { presentFile } from './present.js';
import { readRevision, treeOf } from './revisions.js';
import { flatten, type Located } from './tree.js';
import { foundPage, pageAnswer, wantedPath } from './revision-content.js';

// The content routes of a change request that mirror the space's (file, file backlinks, page
// by path, page links, page backlinks): the same implementations, on the change request's
// revision. ContentLocations in the answers carry the change request as their versionContext.

function crVersion(ctx: Context, tx: ReadTx, caller: Caller, spaceId: string, crId: string) {
  const { space, cr } = readChangeRequest(tx, caller, spaceId, crId);
  const version: ContentVersion = {
    rev: readRevision(tx, spaceId, cr.revision),
    versionContext: { type: 'changeRequest', changeRequest: presentChangeRequest(ctx, tx, cr, space.organization) },
  };
  return { space, cr, version };
}

export const getFileInChangeRequestById = defineOperation('getFileInChangeRequestById', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => {
    const { space, cr, version } = crVersion(ctx, tx, caller, path.spaceId, path.changeRequestId);
    const f = (version.rev.files ?? []).find((x) => x.id === path.fileId);
    if (!f) throw notFound(`file ${path.fileId} not found in change request ${cr.number}`);
    return { status: 200, body: presentFile(ctx, space, f) };
  });
});

export const getPageInChangeRequestByPath = defineOperation('getPageInChangeRequestByPath', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const want = wantedPath(path.pagePath);
  const found = await ctx.store.read((tx) => {
    const { space, cr, version } = crVersion(ctx, tx, caller, path.spaceId, path.changeRequestId);
    const l: Located | undefined = flatten(treeOf(tx, version.rev)).find((x) => x.path === want && x.node.type !== 'link');
    if (!l) throw notFound(`page at path ${want} not found in change request ${cr.number}`);
    return foundPage(ctx, tx, space, l);
  });
  return pageAnswer(ctx, found, query.format);
});

export const listPageLinksInChangeRequest = defineOperation('listPageLinksInChangeRequest', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const parse = await loadParser();
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => {
    const { version } = crVersion(ctx, tx, caller, path.spaceId, path.changeRequestId);
    const all = linkItems(ctx, tx, caller, parse, path.spaceId, path.pageId, version);
    return { status: 200, body: { ...paginate(all.items, query), stats: all.stats } };
  });
});

/**
 * The links of the change request's content, as listSpaceLinks gives the space's. `stats.broken
 * .changeRequest` counts the broken links the change request introduced: broken in its content
 * and not in its base (the space revision it was last updated from). `brokenContext=change-request`
 * keeps only those among the broken items listed; `space` (the default) lists every broken link.
 */
export const listChangeRequestLinks = defineOperation('listChangeRequestLinks', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const parse = await loadParser();
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => {
    const { cr, version } = crVersion(ctx, tx, caller, path.spaceId, path.changeRequestId);
    const all = linkItems(ctx, tx, caller, parse, path.spaceId, undefined, version);
    const before = brokenKeys(tx, ctx, parse, path.spaceId, readRevision(tx, path.spaceId, baseOf(cr)));
    const isNew = all.items.map((item, i) => item.status === 'broken' && !before.has(all.keys[i]!));
    const items = all.items.filter(
      (item, i) => (!query.status || item.status === query.status) && (query.brokenContext !== 'change-request' || item.status !== 'broken' || isNew[i]),
    );
    const stats = { total: all.stats.total, broken: { total: all.stats.broken.total, changeRequest: isNew.filter(Boolean).length } };
    return { status: 200, body: { ...paginate(items, query), stats } };
  });
});

export const listChangeRequestPageBacklinks = defineOperation('listChangeRequestPageBacklinks', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const parse = await loadParser();
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => {
    const { version } = crVersion(ctx, tx, caller, path.spaceId, path.changeRequestId);
    return { status: 200, body: paginate(backlinks(ctx, tx, caller, parse, path.spaceId, { page: path.pageId }, version), query) };
  });
});

export const listChangeRequestFileBacklinks = defineOperation('listChangeRequestFileBacklinks', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const parse = await loadParser();
  await ensureDownloadSecret(ctx);
  return ctx.store.read((tx) => {
    const { version } = crVersion(ctx, tx, caller, path.spaceId, path.changeRequestId);
    return { status: 200, body: paginate(backlinks(ctx, tx, caller, parse, path.spaceId, { file: path.fileId }, version), query) };
  });
});
