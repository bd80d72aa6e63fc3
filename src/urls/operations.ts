import { getChangeRequestById } from '../change-requests/operations.js';
import { getCollectionById } from '../collections/operations.js';
import { getPageInChangeRequestByPath } from '../content/change-request-content.js';
import { getPageByPath } from '../content/operations.js';
import type { Caller, Context } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { getOrganizationById } from '../organizations/operations.js';
import { getSpaceById } from '../spaces/operations.js';
import { appTarget, parseUrl, type AppTarget } from './app-urls.js';

// The URL operations of the API: what one of this server's addresses shows. The addresses are
// the `urls.app` of collections, spaces, pages and change requests (`<base>/o/<org>/...`); each
// is resolved by the operation that reads the thing, with the caller's own rights, so a URL
// says nothing more than those reads would (a space the caller cannot see is a 404 either way).
// Published sites' addresses are not resolved here (their lookup belongs to the published
// rendering, above this layer); nor are other servers' pages fetched: this server does not
// request third-party URLs on a caller's behalf (see getEmbedByUrl).

type Resolved = { collection: unknown } | { space: any; changeRequest?: unknown; page?: unknown };

async function resolve(ctx: Context, caller: Caller, target: AppTarget): Promise<Resolved> {
  const read = async (op: { handler: (req: any) => any }, path: Record<string, string>, query: Record<string, unknown> = {}) =>
    (await op.handler({ ctx, caller, path, query, body: undefined })).body;
  if (target.kind === 'collection') {
    const collection = await read(getCollectionById, { collectionId: target.id });
    if (collection.organization !== target.organization) throw notFound(`nothing at ${target.url}`);
    return { collection };
  }
  const space = await read(getSpaceById, { spaceId: target.space });
  if (space.organization !== target.organization) throw notFound(`nothing at ${target.url}`);
  if (target.changeRequest === undefined) {
    if (!target.pagePath) return { space };
    return { space, page: await read(getPageByPath, { spaceId: space.id, pagePath: target.pagePath }) };
  }
  const changeRequest = await read(getChangeRequestById, { spaceId: space.id, changeRequestId: target.changeRequest });
  if (!target.pagePath) return { space, changeRequest };
  const page = await read(getPageInChangeRequestByPath, { spaceId: space.id, changeRequestId: changeRequest.id, pagePath: target.pagePath });
  return { space, changeRequest, page };
}

/** GET /v1/urls/content?url=: the collection, or the space (with its change request and page) a URL of this server's app shows. */
export const getContentByUrl = defineOperation('getContentByUrl', async ({ ctx, caller, query }) => {
  const target = appTarget(ctx, String(query.url));
  if (!target) throw notFound(`${query.url} is not an address of this server's app (${ctx.baseUrl}/o/...)`);
  return { status: 200, body: await resolve(ctx, caller, target) };
});

/**
 * An embed of a URL: for this server's app, a link titled after what it shows (the page, change
 * request, space or collection, as the caller may read it), `site` being the organization. For
 * any other address, a plain link named after the address: GitBook fetches the page's oEmbed,
 * but a server that fetches what any caller names is a door into the network it sits in, so
 * this one never requests it (the published site renders such embeds as links).
 */
async function embedOf(ctx: Context, caller: Caller, raw: string) {
  const url = parseUrl(raw);
  if (!url) throw invalid(`query.url: ${raw} is not an http(s) URL`);
  const target = appTarget(ctx, raw);
  if (!target) return { type: 'link' as const, title: `${url.host}${url.pathname === '/' ? '' : url.pathname}`, site: url.host };
  const found: any = await resolve(ctx, caller, target);
  const org = (await getOrganizationById.handler({ ctx, caller, path: { organizationId: target.organization }, query: {}, body: undefined })).body as {
    title: string;
    urls: { logo?: string };
  };
  const title =
    found.page?.title ??
    (found.changeRequest ? `#${found.changeRequest.number} ${found.changeRequest.subject ?? ''}`.trim() : undefined) ??
    found.space?.title ??
    found.collection.title;
  return { type: 'link' as const, title, site: org.title, ...(org.urls.logo ? { icon: org.urls.logo } : {}) };
}

export const getEmbedByUrl = defineOperation('getEmbedByUrl', async ({ ctx, caller, query }) => ({
  status: 200,
  body: await embedOf(ctx, caller, String(query.url)),
}));

/** GET /v1/spaces/{spaceId}/embed?url=: the same, for a caller who may read the space. */
export const getEmbedByUrlInSpace = defineOperation('getEmbedByUrlInSpace', async ({ ctx, caller, path, query }) => {
  await getSpaceById.handler({ ctx, caller, path: { spaceId: path.spaceId }, query: {}, body: undefined });
  return { status: 200, body: await embedOf(ctx, caller, String(query.url)) };
});
