import { apiUrl, type Caller, type Context } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { contentAccess } from '../tree/access.js';
import { defineOperation, type OperationResult } from '../kernel/operation.js';
import type { Role } from '../kernel/roles.js';
import { paginate } from '../kernel/pagination.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { SITE_ADMIN, SITE_READ, siteOf, type SiteSeen } from './access.js';
import { checkAdaptiveSchema, templateConditions } from './adaptive.js';
import { customizationToStore, putSiteSpaceOverride, siteCustomization, siteSpaceCustomization } from './customization.js';
import type { SiteRecord, SiteSectionGroupRecord, SiteSectionRecord } from './model.js';
import { presentShareLink, presentSite, siteAddress, SitePresenter } from './present.js';
import { partnerSites, partnerUpdate, requirePartner, updateSiteAds } from './ads.js';
import { Organizations } from '../organizations/tables.js';
import { publishedProfile } from './published.js';
import { nodesIn } from './rows.js';
import * as sections from './sections.js';
import * as service from './service.js';
import * as siteSpaces from './site-spaces.js';
import { createShareLink, deleteShareLink, requireShareKey, shareLinksOf, updateShareLink } from './share-links.js';
import { sortItem, type Pointer } from './sort.js';
import { SiteSectionGroups, SiteSections, SiteSpaces, Sites } from './tables.js';
import { deleteSiteAndItsRows } from '../site-deletion.js';

// Handlers of the docs-sites operations, by official operationId. Reads need a role in the
// organization, changes need admin (src/sites/access.ts).

type P = Record<string, string>;
const sitePath = (path: P, rest = '') => `/orgs/${path.organizationId}/sites/${path.siteId}${rest}`;

const read = <R>(ctx: Context, caller: Caller, path: P, action: string, fn: (tx: ReadTx, seen: SiteSeen) => R) =>
  ctx.store.read((tx) => fn(tx, siteOf(tx, caller, path.organizationId!, path.siteId!, SITE_READ, action)));

const write = <R>(ctx: Context, caller: Caller, path: P, action: string, fn: (tx: WriteTx, seen: SiteSeen) => R, need: Role = SITE_ADMIN) =>
  ctx.store.write((tx) => fn(tx, siteOf(tx, caller, path.organizationId!, path.siteId!, need, action)));

/** Runs `fn` after a write and presents with a fresh read (the presenter reads the committed structure). */
const present = <R>(ctx: Context, caller: Caller, path: P, fn: (p: SitePresenter, tx: ReadTx, seen: SiteSeen) => R, shareKey?: string) =>
  ctx.store.read((tx) => {
    const seen = siteOf(tx, caller, path.organizationId!, path.siteId!, SITE_READ, 'reading sites');
    return fn(new SitePresenter(tx, ctx, caller, seen.org, seen.site, { shareKey }), tx, seen);
  });

const created = (ctx: Context, location: string, body: unknown): OperationResult => ({ status: 201, headers: { Location: apiUrl(ctx, location) }, body });
const gone = (deleted: boolean): OperationResult => ({ status: deleted ? 205 : 204 });

// Sites

export const listSites = defineOperation('listSites', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const { org, sites } = service.listSites(tx, caller, path.organizationId, query);
    const viewer = contentAccess(tx, org.id, caller);
    return { status: 200, body: paginate(sites, query, (s) => presentSite(ctx, tx, org, s, undefined, viewer)) };
  }),
);

export const createSite = defineOperation('createSite', async ({ ctx, caller, path, body }) => {
  const { site } = await ctx.store.write((tx) => service.createSite(tx, ctx, caller, path.organizationId, body ?? {}));
  return created(ctx, sitePath({ ...path, siteId: site.id }), await present(ctx, caller, { ...path, siteId: site.id }, (p) => p.presentSite()));
});

export const getSiteById = defineOperation('getSiteById', async ({ ctx, caller, path }) => ({
  status: 200,
  body: await present(ctx, caller, path, (p) => p.presentSite()),
}));

export const updateSiteById = defineOperation('updateSiteById', async ({ ctx, caller, path, body }) => {
  await ctx.store.write((tx) => service.updateSite(tx, ctx, caller, path.organizationId, path.siteId, body));
  return { status: 200, body: await present(ctx, caller, path, (p) => p.presentSite()) };
});

export const deleteSiteById = defineOperation('deleteSiteById', async ({ ctx, caller, path }) =>
  gone(await ctx.store.write((tx) => deleteSiteAndItsRows(tx, caller, path.organizationId, path.siteId))),
);

export const publishSite = defineOperation('publishSite', async ({ ctx, caller, path }) => {
  await ctx.store.write((tx) => service.setPublished(tx, ctx, caller, path.organizationId, path.siteId, true));
  return { status: 200, body: await present(ctx, caller, path, (p) => p.presentSite()) };
});

export const unpublishSite = defineOperation('unpublishSite', async ({ ctx, caller, path }) => {
  await ctx.store.write((tx) => service.setPublished(tx, ctx, caller, path.organizationId, path.siteId, false));
  return { status: 200, body: await present(ctx, caller, path, (p) => p.presentSite()) };
});

export const getPublishedContentSite = defineOperation('getPublishedContentSite', async ({ ctx, caller, path, query }) => ({
  status: 200,
  body: await ctx.store.read((tx) => publishedProfile(tx, ctx, caller, path.organizationId, path.siteId, query.shareKey)),
}));

// Structure

const checkedKey = (tx: ReadTx, site: SiteRecord, key?: string) => requireShareKey(tx, site, key);

export const getSiteStructure = defineOperation('getSiteStructure', async ({ ctx, caller, path, query }) => {
  const key = await read(ctx, caller, path, 'reading sites', (tx, { site }) => checkedKey(tx, site, query.shareKey));
  return { status: 200, body: await present(ctx, caller, path, (p) => p.structure(true), key) };
});

export const sortSiteStructure = defineOperation('sortSiteStructure', async ({ ctx, caller, path, body }) => {
  // The spec marks this body optional, yet there is nothing to move without one.
  if (!body) throw invalid('body: is required (item and position)');
  const moved = await write(ctx, caller, path, `reordering site ${path.siteId}`, (tx, { site }) => sortItem(tx, site, body.item, body.position));
  return { status: 200, body: await presentItem(ctx, caller, path, moved.type, moved.row.id) };
});

function presentItem(ctx: Context, caller: Caller, path: P, type: Pointer['type'], id: string) {
  return present(ctx, caller, path, (p, tx) =>
    type === 'site-space'
      ? p.siteSpace(tx.get(SiteSpaces, id)!)
      : type === 'site-section'
        ? p.section(tx.get(SiteSections, id)!)
        : p.group(tx.get(SiteSectionGroups, id)!),
  );
}

/** The deprecated moves: the same reordering, with their own pointer shapes. */
type DeprecatedMove = 'moveSiteSection' | 'moveSiteSpace' | 'moveSiteSectionGroup';
const deprecatedMove = (operationId: DeprecatedMove, type: Pointer['type'], param: string, pointerId: (ptr: Record<string, string>) => Pointer) =>
  defineOperation<DeprecatedMove>(operationId, async ({ ctx, caller, path: p, body }) => {
    const path: Record<string, string> & P = p;
    const pos = body?.position;
    const position = pos && {
      ...(pos.before ? { before: pointerId(pos.before) } : {}),
      ...(pos.after ? { after: pointerId(pos.after) } : {}),
    };
    await write(ctx, caller, path, `reordering site ${path.siteId}`, (tx, { site }) => sortItem(tx, site, { type, id: path[param] }, position));
    return { status: 200, body: await presentItem(ctx, caller, path, type, path[param]) };
  });

export const moveSiteSection = deprecatedMove('moveSiteSection', 'site-section', 'siteSectionId', (p) => ({ type: 'site-section', id: p.siteSection! }));
export const moveSiteSpace = deprecatedMove('moveSiteSpace', 'site-space', 'siteSpaceId', (p) => ({ type: 'site-space', id: p.siteSpace! }));
export const moveSiteSectionGroup = deprecatedMove('moveSiteSectionGroup', 'site-section-group', 'siteSectionGroupId', (p) => ({
  type: p.type as Pointer['type'],
  id: p.id!,
}));

// Sections

/** Sections in structure order: depth first through groups. */
function allSections(tx: ReadTx, site: string, group: string | null = null): SiteSectionRecord[] {
  return nodesIn(tx, site, group).flatMap((n) => (n.kind === 'section' ? [n.row] : allSections(tx, site, n.row.id)));
}
function allGroups(tx: ReadTx, site: string, group: string | null = null): SiteSectionGroupRecord[] {
  return nodesIn(tx, site, group).flatMap((n) => (n.kind === 'group' ? [n.row, ...allGroups(tx, site, n.row.id)] : []));
}

export const listSiteSections = defineOperation('listSiteSections', async ({ ctx, caller, path, query }) => {
  const key = await read(ctx, caller, path, 'reading sites', (tx, { site }) => checkedKey(tx, site, query.shareKey));
  return { status: 200, body: await present(ctx, caller, path, (p, tx, { site }) => paginate(allSections(tx, site.id), query, (s) => p.section(s)), key) };
});

export const addSectionToSite = defineOperation('addSectionToSite', async ({ ctx, caller, path, body }) => {
  const s = await write(ctx, caller, path, `changing site ${path.siteId}`, (tx, { site }) => sections.addSection(tx, ctx, caller, site, body));
  return created(ctx, sitePath(path, `/sections/${s.id}`), await presentItem(ctx, caller, path, 'site-section', s.id));
});

// siteSectionGroupId: the latest spec's move of a section into a group (null: to the root), which
// the pinned contract's body does not list (docs/manual/docs-as-code.md#moving-items-between-containers).
export const updateSiteSectionById = defineOperation(
  'updateSiteSectionById',
  async ({ ctx, caller, path, body }) => {
    await write(ctx, caller, path, `changing site ${path.siteId}`, (tx, { site }) => sections.updateSection(tx, site, path.siteSectionId, body));
    return { status: 200, body: await presentItem(ctx, caller, path, 'site-section', path.siteSectionId) };
  },
  { extraBodyFields: ['siteSectionGroupId'] },
);

export const deleteSiteSectionById = defineOperation('deleteSiteSectionById', async ({ ctx, caller, path }) =>
  gone(await write(ctx, caller, path, `changing site ${path.siteId}`, (tx, { site }) => sections.deleteSection(tx, site, path.siteSectionId))),
);

// Section groups

export const listSiteSectionGroups = defineOperation('listSiteSectionGroups', async ({ ctx, caller, path, query }) => ({
  status: 200,
  body: await present(ctx, caller, path, (p, tx, { site }) => paginate(allGroups(tx, site.id), query, (g) => p.group(g))),
}));

export const addSectionGroupToSite = defineOperation('addSectionGroupToSite', async ({ ctx, caller, path, body }) => {
  const g = await write(ctx, caller, path, `changing site ${path.siteId}`, (tx, { site }) => sections.addGroup(tx, ctx, site, body));
  return created(ctx, sitePath(path, `/section-groups/${g.id}`), await presentItem(ctx, caller, path, 'site-section-group', g.id));
});

// parentSectionGroupId: the latest spec's move of a group into another (null: to the root).
export const updateSiteSectionGroupById = defineOperation(
  'updateSiteSectionGroupById',
  async ({ ctx, caller, path, body }) => {
    await write(ctx, caller, path, `changing site ${path.siteId}`, (tx, { site }) => sections.updateGroup(tx, site, path.siteSectionGroupId, body));
    return { status: 200, body: await presentItem(ctx, caller, path, 'site-section-group', path.siteSectionGroupId) };
  },
  { extraBodyFields: ['parentSectionGroupId'] },
);

export const deleteSiteSectionGroupById = defineOperation('deleteSiteSectionGroupById', async ({ ctx, caller, path }) =>
  gone(await write(ctx, caller, path, `changing site ${path.siteId}`, (tx, { site }) => sections.deleteGroup(tx, site, path.siteSectionGroupId))),
);

export const addSectionToGroup = defineOperation('addSectionToGroup', async ({ ctx, caller, path, body }) => {
  await write(ctx, caller, path, `changing site ${path.siteId}`, (tx, { site }) =>
    sections.addSectionToGroup(tx, site, path.siteSectionGroupId, body.sectionId),
  );
  return created(
    ctx,
    sitePath(path, `/section-groups/${path.siteSectionGroupId}`),
    await presentItem(ctx, caller, path, 'site-section-group', path.siteSectionGroupId),
  );
});

export const removeSectionFromGroup = defineOperation('removeSectionFromGroup', async ({ ctx, caller, path }) =>
  gone(
    await write(ctx, caller, path, `changing site ${path.siteId}`, (tx, { site }) =>
      sections.removeSectionFromGroup(tx, site, path.siteSectionGroupId, path.siteSectionId),
    ),
  ),
);

// Site spaces

export const listSiteSpaces = defineOperation('listSiteSpaces', async ({ ctx, caller, path, query }) => {
  const key = await read(ctx, caller, path, 'reading sites', (tx, { site }) => checkedKey(tx, site, query.shareKey));
  return {
    status: 200,
    body: await present(
      ctx,
      caller,
      path,
      (p, tx, { site }) => {
        const containers = [null, ...allSections(tx, site.id).map((s) => s.id)];
        const all = containers.flatMap((c) => p.siteSpaces(c)).filter((ss) => query.default === undefined || ss.default === query.default);
        return paginate(all, query);
      },
      key,
    ),
  };
});

export const addSpaceToSite = defineOperation('addSpaceToSite', async ({ ctx, caller, path, body }) => {
  const ss = await write(ctx, caller, path, `changing site ${path.siteId}`, (tx, { site }) => siteSpaces.addSpaceToSite(tx, ctx, caller, site, body));
  return created(ctx, sitePath(path, `/site-spaces/${ss.id}`), await presentItem(ctx, caller, path, 'site-space', ss.id));
});

export const updateSiteSpaceById = defineOperation(
  'updateSiteSpaceById',
  async ({ ctx, caller, path, body }) => {
    await write(ctx, caller, path, `changing site ${path.siteId}`, (tx, { site }) => siteSpaces.updateSiteSpace(tx, caller, site, path.siteSpaceId, body));
    return { status: 200, body: await presentItem(ctx, caller, path, 'site-space', path.siteSpaceId) };
  },
  // API.md's `hidden` (in the contract from 0.167.0 on; not in the pinned 0.146.0 schema).
  { extraBodyFields: ['hidden'] },
);

export const deleteSiteSpaceById = defineOperation('deleteSiteSpaceById', async ({ ctx, caller, path }) =>
  gone(await write(ctx, caller, path, `changing site ${path.siteId}`, (tx, { site }) => siteSpaces.deleteSiteSpace(tx, site, path.siteSpaceId))),
);

// Adaptive content

export const getSiteAdaptiveSchema = defineOperation('getSiteAdaptiveSchema', ({ ctx, caller, path }) =>
  read(ctx, caller, path, 'reading sites', (_tx, { site }) => {
    if (!site.adaptiveSchema) throw notFound(`site ${site.id} has no adaptive schema`);
    return { status: 200, body: { object: 'site-adaptive-schema', ...site.adaptiveSchema } };
  }),
);

export const updateSiteAdaptiveSchema = defineOperation('updateSiteAdaptiveSchema', async ({ ctx, caller, path, body }) => {
  const schema = await write(ctx, caller, path, `changing site ${path.siteId}`, (tx, { site }) => {
    const adaptiveSchema = { jsonSchema: checkAdaptiveSchema(body.jsonSchema), updatedAt: ctx.clock.now().toISOString() };
    tx.put(Sites, { ...site, adaptiveSchema });
    return adaptiveSchema;
  });
  return { status: 200, body: { object: 'site-adaptive-schema', ...schema } };
});

export const listSiteAdaptiveTemplateConditions = defineOperation('listSiteAdaptiveTemplateConditions', ({ ctx, caller, path }) =>
  read(ctx, caller, path, 'reading sites', (_tx, { site }) => ({ status: 200, body: { items: templateConditions(site.adaptiveSchema?.jsonSchema) } })),
);

// Customization

export const getSiteCustomizationById = defineOperation('getSiteCustomizationById', ({ ctx, caller, path }) =>
  read(ctx, caller, path, 'reading sites', (_tx, { site }) => ({ status: 200, body: siteCustomization(site) })),
);

export const updateSiteCustomizationById = defineOperation('updateSiteCustomizationById', async ({ ctx, caller, path, body }) => {
  const site = await write(ctx, caller, path, `customizing site ${path.siteId}`, (tx, { site }) =>
    tx.put(Sites, { ...site, customization: customizationToStore(body, site), updatedAt: ctx.clock.now().toISOString() }),
  );
  return { status: 200, body: siteCustomization(site) };
});

export const getSiteSpaceCustomizationById = defineOperation('getSiteSpaceCustomizationById', ({ ctx, caller, path }) =>
  read(ctx, caller, path, 'reading sites', (tx, { site }) => ({
    status: 200,
    body: siteSpaceCustomization(site, siteSpaces.siteSpaceOf(tx, site, path.siteSpaceId)),
  })),
);

export const overrideSiteSpaceCustomizationById = defineOperation('overrideSiteSpaceCustomizationById', async ({ ctx, caller, path, body }) => {
  const body2 = await write(ctx, caller, path, `customizing site ${path.siteId}`, (tx, { site }) =>
    siteSpaceCustomization(site, putSiteSpaceOverride(tx, siteSpaces.siteSpaceOf(tx, site, path.siteSpaceId), body ?? {})),
  );
  return { status: 200, body: body2 };
});

export const deleteSiteSpaceCustomizationById = defineOperation('deleteSiteSpaceCustomizationById', async ({ ctx, caller, path }) =>
  gone(
    await write(ctx, caller, path, `customizing site ${path.siteId}`, (tx, { site }) => {
      const ss = siteSpaces.siteSpaceOf(tx, site, path.siteSpaceId);
      if (!ss.customization) return false;
      const { customization: _, ...rest } = ss;
      tx.put(SiteSpaces, rest);
      return true;
    }),
  ),
);

// Share links

export const listSiteShareLinks = defineOperation('listSiteShareLinks', ({ ctx, caller, path, query }) =>
  // Listing share links hands out their keys (in urls.published): admins only.
  ctx.store.read((tx) => {
    const { org, site } = siteOf(tx, caller, path.organizationId, path.siteId, SITE_ADMIN, 'listing share links');
    return { status: 200, body: paginate(shareLinksOf(tx, site.id), query, (l) => presentShareLink(ctx, org, site, l)) };
  }),
);

export const createSiteShareLink = defineOperation('createSiteShareLink', async ({ ctx, caller, path, body }) => {
  const { org, site, link } = await write(ctx, caller, path, `sharing site ${path.siteId}`, (tx, { org, site }) => ({
    org,
    site,
    link: createShareLink(tx, ctx, site, body.name),
  }));
  return created(ctx, sitePath(path, `/share-links/${link.id}`), presentShareLink(ctx, org, site, link));
});

export const updateSiteShareLinkById = defineOperation('updateSiteShareLinkById', async ({ ctx, caller, path, body }) => {
  const { org, site, link } = await write(ctx, caller, path, `sharing site ${path.siteId}`, (tx, { org, site }) => ({
    org,
    site,
    link: updateShareLink(tx, site, path.shareLinkId, body),
  }));
  return { status: 200, body: presentShareLink(ctx, org, site, link) };
});

export const deleteSiteShareLinkById = defineOperation('deleteSiteShareLinkById', async ({ ctx, caller, path }) =>
  gone(await write(ctx, caller, path, `sharing site ${path.siteId}`, (tx, { site }) => deleteShareLink(tx, site, path.shareLinkId))),
);

// ---- Ads (docs/manual/sites.md#ads): settings stored and shown; no ad network here ----

export const updateSiteAdsById = defineOperation('updateSiteAdsById', async ({ ctx, caller, path, body }) => {
  await ctx.store.write((tx) => updateSiteAds(tx, ctx, caller, path.organizationId, path.siteId, body));
  return { status: 204 };
});

// The partner's side: any signed-in caller holding this server's ads partner key (the header,
// handed to the handler by invoke as a declared header parameter, and to nothing else).
export const adsListSites = defineOperation('adsListSites', async ({ ctx, query, headers }) => {
  requirePartner(headers);
  const items = await ctx.store.read((tx) =>
    partnerSites(tx, ctx, query.status ?? 'in-review', (site) => {
      const org = tx.get(Organizations, site.organization);
      return org ? siteAddress(ctx, org, site) : '';
    }),
  );
  return { status: 200, body: paginate(items, query, (x) => x) };
});

export const adsUpdateSite = defineOperation('adsUpdateSite', async ({ ctx, path, body, headers }) => {
  requirePartner(headers);
  await ctx.store.write((tx) => partnerUpdate(tx, ctx, path.siteId, body));
  return { status: 204 };
});
