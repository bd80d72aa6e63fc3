import { onlyFields } from '../collections/service.js';
import type { Caller, Context } from '../kernel/context.js';
import { conflict, DocsError, invalid } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { OrganizationRecord } from '../organizations/model.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { SITE_ADMIN, SITE_READ, siteMembership, siteOf, sitesOfMember } from './access.js';
import { atLeast } from '../kernel/roles.js';
import { dropGrantsOn } from '../tree/grants.js';
import { membershipOf } from '../organizations/service.js';
import { SITE_TITLE, type SiteRecord, type SiteType, type SiteVisibility } from './model.js';
import { slugify, uniquePath } from './paths.js';
import { defaultSection, groupsOf, hasSections, sectionsOf, siteSpacesOfSite } from './rows.js';
import { insertSiteSpace, requireSpace, setDefaultSiteSpace, siteSpaceOf } from './site-spaces.js';
import { setDefaultSection } from './sections.js';
import { Organizations } from '../organizations/tables.js';
import { newVisitorAuth } from './publishing-auth.js';
import {
  CustomHostnames,
  SiteInsightBatches,
  SiteInsightRollups,
  SiteMcpServers,
  SiteChannels,
  SiteExternalLinks,
  SiteAgentSettings,
  SiteRedirects,
  SiteSectionGroups,
  SiteSections,
  SiteShareLinks,
  SiteSpaces,
  Sites,
} from './tables.js';

function siteTitle(value: unknown): string {
  const t = String(value).trim();
  if (t.length < SITE_TITLE.min || t.length > SITE_TITLE.max) throw invalid(`title: must be ${SITE_TITLE.min} to ${SITE_TITLE.max} characters`);
  return t;
}

export const sitesOf = (tx: ReadTx, organization: string) =>
  tx.find(Sites, 'organization', organization).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));

export interface SiteFilters {
  space?: string;
  title?: string;
  published?: boolean;
  type?: SiteType[];
}

/** The organization's sites, oldest first, filtered as UNSHOWN.md lists (title: case-insensitive contains). */
export function listSites(tx: ReadTx, caller: Caller, organizationId: string, f: SiteFilters) {
  // A guest given a role on some sites lists those; without any, the organization role decides (403).
  const { org, member } = membershipOf(tx, organizationId, caller);
  const reached = atLeast(member.role, SITE_READ) ? sitesOf(tx, org.id) : sitesOfMember(tx, member);
  if (!reached.length) siteMembership(tx, caller, organizationId, SITE_READ, 'listing sites');
  const ids = new Set(reached.map((s) => s.id));
  const title = f.title?.toLowerCase();
  return {
    org,
    sites: sitesOf(tx, org.id).filter(
      (s) =>
        ids.has(s.id) &&
        (title === undefined || s.title.toLowerCase().includes(title)) &&
        (f.published === undefined || s.published === f.published) &&
        (!f.type?.length || f.type.includes(s.type)) &&
        (f.space === undefined || siteSpacesOfSite(tx, s.id).some((ss) => ss.space === f.space)),
    ),
  };
}

export interface NewSite {
  type?: SiteType;
  title?: string;
  visibility?: SiteVisibility;
  spaces?: string[];
}

/**
 * A new, unpublished site: `basic` and `public` unless told, titled "Docs" when no title is
 * given, its basename derived from the title (unique in the organization), `spaces` as its
 * first site spaces, at the root, the first one the default.
 */
export function insertSite(tx: WriteTx, ctx: Context, caller: Caller, org: OrganizationRecord, body: NewSite): SiteRecord {
  const title = body.title === undefined ? 'Docs' : siteTitle(body.title);
  const now = ctx.clock.now().toISOString();
  const site = tx.put(Sites, {
    id: newId(),
    organization: org.id,
    type: body.type ?? 'basic',
    title,
    visibility: body.visibility ?? 'public',
    published: false,
    basename: uniquePath(
      slugify(title),
      sitesOf(tx, org.id).map((s) => s.basename),
    ),
    adaptiveContent: { enabled: false },
    agentsContext: 'included',
    visitorAuth: newVisitorAuth(ctx),
    createdAt: now,
    updatedAt: now,
  });
  const spaces = [...new Set(body.spaces ?? [])].map((id, i) => requireSpace(tx, caller, site, id, `spaces[${i}]`));
  for (const space of spaces) insertSiteSpace(tx, ctx, site, space, null);
  return site;
}

export function createSite(tx: WriteTx, ctx: Context, caller: Caller, organizationId: string, body: NewSite) {
  const { org } = siteMembership(tx, caller, organizationId, SITE_ADMIN, 'creating a site');
  onlyFields(body, ['type', 'title', 'visibility', 'spaces'], 'POST /orgs/{organizationId}/sites');
  return { org, site: insertSite(tx, ctx, caller, org, body) };
}

export interface SitePatch {
  title?: string;
  visibility?: SiteVisibility;
  basename?: string;
  adaptiveContent?: { enabled: boolean };
  agentsContext?: 'excluded' | 'included';
  defaultSiteSpace?: string;
  defaultSiteSection?: string;
  proxy?: string | null;
}

const BASENAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

export function updateSite(tx: WriteTx, ctx: Context, caller: Caller, organizationId: string, siteId: string, body: SitePatch) {
  const { org, site } = siteOf(tx, caller, organizationId, siteId, SITE_ADMIN, `updating site ${siteId}`);
  const accepted = ['title', 'visibility', 'basename', 'adaptiveContent', 'agentsContext', 'defaultSiteSpace', 'defaultSiteSection', 'proxy'];
  onlyFields(body, accepted, 'PATCH /orgs/{organizationId}/sites/{siteId}');
  if (!Object.keys(body).length) throw invalid(`body: give at least one of ${accepted.join(', ')}`);
  const next: SiteRecord = { ...site, updatedAt: ctx.clock.now().toISOString() };
  if (body.title !== undefined) next.title = siteTitle(body.title);
  if (body.visibility !== undefined) next.visibility = body.visibility;
  if (body.basename !== undefined) {
    if (!BASENAME.test(body.basename)) throw invalid("basename: must be 1 to 100 letters, digits, '-', '_' or '.', starting and ending with a letter or digit");
    if (sitesOf(tx, org.id).some((s) => s.id !== site.id && s.basename === body.basename))
      throw conflict(`basename: ${body.basename} is already the basename of another site of this organization`);
    next.basename = body.basename;
  }
  if (body.adaptiveContent !== undefined) next.adaptiveContent = { enabled: body.adaptiveContent.enabled };
  if (body.agentsContext !== undefined) next.agentsContext = body.agentsContext;
  if (body.proxy === null) delete next.proxy;
  else if (body.proxy !== undefined) {
    const taken = tx.find(Sites, 'proxy', body.proxy).find((s) => s.id !== site.id);
    if (taken) throw conflict(`proxy: ${body.proxy} is already the proxy of another site`);
    next.proxy = body.proxy;
  }
  if (body.defaultSiteSection !== undefined) setDefaultSection(tx, site, body.defaultSiteSection, 'defaultSiteSection');
  if (body.defaultSiteSpace !== undefined) {
    // At the root of a flat site, or in the site's default section (as the contract describes it).
    const ss = siteSpaceOf(tx, site, body.defaultSiteSpace);
    const where = hasSections(tx, site.id) ? (defaultSection(tx, site.id)?.id ?? null) : null;
    if (ss.section !== where) {
      throw invalid(`defaultSiteSpace: site space ${ss.id} is not ${where ? `in the default section ${where}` : 'at the root of this site'}`);
    }
    setDefaultSiteSpace(tx, site, ss, 'defaultSiteSpace');
  }
  tx.put(Sites, next);
  return { org, site: next };
}

/**
 * Deletes a site with its structure (sections, groups, site spaces) and share links; the spaces
 * stay. An organization whose default content was this site no longer has one.
 */
export function deleteSite(tx: WriteTx, caller: Caller, organizationId: string, siteId: string): boolean {
  let seen;
  try {
    seen = siteOf(tx, caller, organizationId, siteId, SITE_ADMIN, `deleting site ${siteId}`);
  } catch (err) {
    if (err instanceof DocsError && err.kind === 'not_found' && err.message.startsWith('site ')) return false;
    throw err;
  }
  const { org, site } = seen;
  for (const r of siteSpacesOfSite(tx, site.id)) tx.delete(SiteSpaces, r.id);
  for (const r of sectionsOf(tx, site.id)) tx.delete(SiteSections, r.id);
  for (const r of groupsOf(tx, site.id)) tx.delete(SiteSectionGroups, r.id);
  for (const r of tx.find(SiteShareLinks, 'site', site.id)) tx.delete(SiteShareLinks, r.id);
  for (const r of tx.find(SiteRedirects, 'site', site.id)) tx.delete(SiteRedirects, r.id);
  for (const r of tx.find(CustomHostnames, 'site', site.id)) tx.delete(CustomHostnames, r.id);
  for (const r of tx.find(SiteMcpServers, 'site', site.id)) tx.delete(SiteMcpServers, r.id);
  for (const r of tx.find(SiteChannels, 'site', site.id)) tx.delete(SiteChannels, r.id);
  for (const r of tx.find(SiteExternalLinks, 'site', site.id)) tx.delete(SiteExternalLinks, r.id);
  for (const r of tx.find(SiteAgentSettings, 'site', site.id)) tx.delete(SiteAgentSettings, r.id);
  for (const r of tx.find(SiteInsightBatches, 'site', site.id)) tx.delete(SiteInsightBatches, r.id);
  for (const r of tx.find(SiteInsightRollups, 'site', site.id)) tx.delete(SiteInsightRollups, r.id);
  dropGrantsOn(tx, org.id, 'site', site.id);
  tx.delete(Sites, site.id);
  if (org.defaultContent?.type === 'site' && org.defaultContent.site === site.id) {
    const { defaultContent: _, ...rest } = org;
    tx.put(Organizations, rest as OrganizationRecord);
  }
  return true;
}

/**
 * Publishing makes the published profile available to the site's audience. A site with no
 * visible site space has nothing to show: 412 rather than a published empty site. Publishing a
 * published site (or unpublishing an unpublished one) changes nothing: 409.
 */
export function setPublished(tx: WriteTx, ctx: Context, caller: Caller, organizationId: string, siteId: string, published: boolean) {
  const { org, site } = siteOf(tx, caller, organizationId, siteId, SITE_ADMIN, `${published ? 'publishing' : 'unpublishing'} site ${siteId}`);
  if (site.published === published) throw conflict(`nothing to change: site ${siteId} is already ${published ? 'published' : 'unpublished'}`);
  if (published && !siteSpacesOfSite(tx, site.id).some((s) => !s.hidden)) {
    throw new DocsError('precondition', `site ${siteId} has no content to publish: add a space to it first`);
  }
  const next = { ...site, published, updatedAt: ctx.clock.now().toISOString() };
  tx.put(Sites, next);
  return { org, site: next };
}
