import { currentRevision, treeOf } from '../content/revisions.js';
import { indexById, nodeAtPath } from '../content/tree.js';
import { apiUrl, type Caller, type Context } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import type { OrganizationRecord } from '../organizations/model.js';
import { Spaces } from '../spaces/tables.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { SITE_ADMIN, SITE_READ, siteOf, type SiteSeen } from './access.js';
import type { RedirectDestination, SiteRecord, SiteRedirectRecord } from './model.js';
import * as redirects from './redirects.js';
import { requireShareKey } from './share-links.js';
import { SiteSpaces } from './tables.js';
import type { SiteRef } from '../urls/site/site.js';

// Site redirects (docs/manual/sites.md#redirects): the rules are in redirects.ts; here, what
// needs a space's content (a page's path, a page found by its path), so these handlers sit in
// the operations layer, above the content area.

type P = Record<string, string>;

/** A page's path in its space's current content, or undefined when the page is gone. */
export function pagePathIn(tx: ReadTx): redirects.PagePathOf {
  const trees = new Map<string, ReturnType<typeof indexById> | undefined>();
  return (spaceId, pageId) => {
    if (!trees.has(spaceId)) {
      const space = tx.get(Spaces, spaceId);
      trees.set(spaceId, space && !space.deletedAt ? indexById(treeOf(tx, currentRevision(tx, space))) : undefined);
    }
    return trees.get(spaceId)?.get(pageId)?.path;
  };
}

/** The chain check's view of a redirect: where it leads under the site. */
const pathsOf = (tx: ReadTx, ctx: Context, org: OrganizationRecord, site: SiteRecord) => {
  const pagePath = pagePathIn(tx);
  return (r: SiteRedirectRecord) => redirects.destinationPath(tx, ctx, org, site, r.destination, pagePath);
};

/**
 * A destination as a client may give it: one of the stored kinds, or `{kind: 'path', spaceId,
 * path}` (a page of one of the site's spaces by its path, as `.gitbook.yaml` names them), turned
 * into the site page (or site space, for an empty path) it is. 400 naming the field otherwise.
 */
export function resolveDestination(tx: ReadTx, site: SiteRecord, d: any, field = 'destination'): RedirectDestination {
  if (d?.kind !== 'path') return d as RedirectDestination;
  const ss = tx.find(SiteSpaces, 'space', String(d.spaceId)).find((x) => x.site === site.id);
  if (!ss) throw invalid(`${field}.spaceId: space ${d.spaceId} is not in site ${site.id}`);
  const space = tx.get(Spaces, ss.space);
  if (!space || space.deletedAt) throw invalid(`${field}.spaceId: space ${d.spaceId} is deleted`);
  const path = String(d.path)
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.md$/i, '')
    .replace(/(^|\/)(README|index)$/i, '');
  if (!path) return { kind: 'site-space', siteSpaceId: ss.id };
  const at = nodeAtPath(treeOf(tx, currentRevision(tx, space)), path);
  if (!at || at.path !== path) throw invalid(`${field}.path: no page at ${JSON.stringify(d.path)} in space ${d.spaceId}`);
  return { kind: 'site-page', siteSpaceId: ss.id, pageId: at.node.id };
}

const read = <R>(ctx: Context, caller: Caller, path: P, fn: (tx: ReadTx, seen: SiteSeen) => R) =>
  ctx.store.read((tx) => fn(tx, siteOf(tx, caller, path.organizationId!, path.siteId!, SITE_READ, 'reading site redirects')));

const write = <R>(ctx: Context, caller: Caller, path: P, fn: (tx: WriteTx, seen: SiteSeen) => R) =>
  ctx.store.write((tx) => fn(tx, siteOf(tx, caller, path.organizationId!, path.siteId!, SITE_ADMIN, `changing the redirects of site ${path.siteId}`)));

const ORDER: Record<string, (a: SiteRedirectRecord, b: SiteRedirectRecord) => number> = {
  createdAt: (a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id),
  updatedAt: (a, b) => (b.updatedAt ?? b.createdAt).localeCompare(a.updatedAt ?? a.createdAt) || a.id.localeCompare(b.id),
  source: (a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.id.localeCompare(b.id)),
};

export const listSiteRedirects = defineOperation('listSiteRedirects', ({ ctx, caller, path, query }) =>
  read(ctx, caller, path, (tx, { site }) => {
    // A boolean once validated; compared as text so a client's `draft=true` reads the same either way.
    const draft = String(query.draft) === 'true';
    const search = typeof query.search === 'string' ? query.search.toLowerCase() : '';
    const all = redirects
      .redirectsOf(tx, site.id)
      .filter((r) => r.draft === draft && (!search || r.source.toLowerCase().includes(search)))
      .sort(ORDER[String(query.orderBy ?? 'createdAt')] ?? ORDER.createdAt);
    return { status: 200, body: paginate(all, query, redirects.presentRedirect) };
  }),
);

export const createSiteRedirect = defineOperation('createSiteRedirect', async ({ ctx, caller, path, body }) => {
  const r = await write(ctx, caller, path, (tx, { org, site }) =>
    redirects.createRedirect(tx, ctx, site, { ...body, destination: resolveDestination(tx, site, body.destination) }, pathsOf(tx, ctx, org, site)),
  );
  return {
    status: 201,
    headers: { Location: apiUrl(ctx, `/orgs/${path.organizationId}/sites/${path.siteId}/redirects/${r.id}`) },
    body: redirects.presentRedirect(r),
  };
});

export const bulkUpsertSiteRedirects = defineOperation('bulkUpsertSiteRedirects', async ({ ctx, caller, path, body }) => {
  const results = await write(ctx, caller, path, (tx, { org, site }) =>
    redirects.bulkUpsert(tx, ctx, site, body.redirects, (d) => resolveDestination(tx, site, d), pathsOf(tx, ctx, org, site)),
  );
  return { status: 200, body: { results } };
});

export const getSiteRedirectBySource = defineOperation('getSiteRedirectBySource', ({ ctx, caller, path, query }) =>
  read(ctx, caller, path, (tx, { org, site }) => {
    requireShareKey(tx, site, query.shareKey);
    const source = redirects.normaliseSource(String(query.source ?? ''));
    const live = redirects.redirectsOf(tx, site.id).filter((r) => !r.draft);
    const hit = redirects.matchRedirect(live, source);
    const target = hit && redirects.targetUrl(tx, ctx, org, site, hit.redirect, pagePathIn(tx), hit.suffix);
    if (!hit || target === undefined) throw notFound(`no redirect from ${source} in site ${site.id}`);
    return { status: 200, body: { redirect: redirects.presentRedirect(hit.redirect), target } };
  }),
);

export const updateSiteRedirectById = defineOperation('updateSiteRedirectById', async ({ ctx, caller, path, body }) => {
  const r = await write(ctx, caller, path, (tx, { org, site }) =>
    redirects.updateRedirect(
      tx,
      ctx,
      site,
      path.siteRedirectId!,
      { ...body, ...(body.destination !== undefined ? { destination: resolveDestination(tx, site, body.destination) } : {}) },
      pathsOf(tx, ctx, org, site),
    ),
  );
  return { status: 200, body: redirects.presentRedirect(r) };
});

export const deleteSiteRedirectById = defineOperation('deleteSiteRedirectById', async ({ ctx, caller, path }) => ({
  status: (await write(ctx, caller, path, (tx, { site }) => redirects.deleteRedirect(tx, site, path.siteRedirectId!))) ? 205 : 204,
}));

// The published site's side of site redirects (docs/manual/sites.md#redirects): an address under
// the site that leads to no page is looked up among the site's live redirects before the 404
// (server/published/sites.ts, and getPublishedContentByUrl in src/urls/operations.ts).

/** The segments (decoded) as a stored source is written: unreserved characters and `+` as is, the rest %-escaped. */
const asSource = (segments: string[]) => redirects.normaliseSource(`/${segments.map((s) => encodeURIComponent(s).replace(/%2B/gi, '+')).join('/')}`);

/** Where a redirect of the site sends `segments` (status 301 permanent, 302 otherwise), the visitor's query kept. */
export function siteRedirectFor(
  tx: ReadTx,
  ctx: Context,
  ref: SiteRef,
  segments: string[],
  search: string,
): { status: 301 | 302; to: string; external: boolean } | undefined {
  if (!segments.length) return undefined;
  let source: string;
  try {
    source = asSource(segments);
  } catch {
    return undefined;
  }
  const live = redirects.redirectsOf(tx, ref.site.id).filter((r) => !r.draft);
  if (!live.length) return undefined;
  const hit = redirects.matchRedirect(live, source);
  if (!hit) return undefined;
  const to = redirects.targetUrl(tx, ctx, ref.org, ref.site, hit.redirect, pagePathIn(tx), hit.suffix);
  if (to === undefined) return undefined;
  const q = search.replace(/^\?/, '');
  return {
    status: hit.redirect.permanent ? 301 : 302,
    to: q ? `${to}${to.includes('?') ? '&' : '?'}${q}` : to,
    external: hit.redirect.destination.kind === 'external',
  };
}
