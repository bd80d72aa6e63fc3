import type { Schema } from '../contract/types.js';
import { apiUrl, type Caller, type Context } from '../kernel/context.js';
import type { OrganizationRecord } from '../organizations/model.js';
import { spaceCounts } from '../spaces/counts.js';
import type { SpaceRecord } from '../spaces/model.js';
import { presentSpace } from '../spaces/present.js';
import type { ReadTx } from '../store/port.js';
import { contentAccess, type ContentAccess } from '../tree/access.js';
import type { ShareLinkRecord, SiteRecord, SiteSectionGroupRecord, SiteSectionRecord, SiteSpaceRecord } from './model.js';
import { liveGroup, liveSection, liveSiteSpace, sitePermissions } from './live.js';
import { hasSections, nodesIn, sectionsOf, siteSpacesIn, siteSpacesOfSite, type Node } from './rows.js';
import { externalLinksIn, presentExternalLink } from './agents.js';
import { SiteSections } from './tables.js';
import { presentSiteAds } from './ads.js';
import { Spaces } from '../spaces/tables.js';

/**
 * The site's published address. Behind a proxy, the proxy's (`https://company.com/docs`);
 * otherwise `{base}/sites/{organization hostname or id}/{basename}`. Sections and site spaces
 * add their path, except the defaults, which live at their parent's address.
 */
export function siteAddress(ctx: Context, org: OrganizationRecord, site: SiteRecord): string {
  return site.proxy ? `https://${site.proxy}` : `${ctx.baseUrl}/sites/${org.hostname ?? org.id}/${site.basename}`;
}

const withKey = (url: string, shareKey?: string) => (shareKey ? `${url}?share=${encodeURIComponent(shareKey)}` : url);

/** Presents a site and its structure for one caller; `shareKey` (checked by the caller) goes into published URLs. */
export class SitePresenter {
  private readonly access: ContentAccess;
  readonly base: string;

  constructor(
    private readonly tx: ReadTx,
    private readonly ctx: Context,
    caller: Caller,
    private readonly org: OrganizationRecord,
    private readonly site: SiteRecord,
    private readonly opts: { shareKey?: string; published?: boolean } = {},
  ) {
    this.access = contentAccess(tx, org.id, caller);
    this.base = siteAddress(ctx, org, site);
  }

  private published(url: string) {
    return this.site.published ? { published: withKey(url, this.opts.shareKey) } : {};
  }

  presentSite(): Schema<'Site'> {
    return presentSite(this.ctx, this.tx, this.org, this.site, this.opts.shareKey, this.access);
  }

  /** Whether a site space is shown, and its space: see the two views below. */
  private visible(ss: SiteSpaceRecord): SpaceRecord | undefined {
    const space = this.tx.get(Spaces, ss.space);
    if (!space) return undefined;
    if (this.opts.published) return space.deletedAt || ss.hidden ? undefined : space;
    // The management views show a member only the spaces they can see: an unpublished site must
    // not reveal spaces closed to them. (The published profile is the audience's view: it shows all.)
    return this.access.space(space) ? space : undefined;
  }

  private sectionAddress(s: SiteSectionRecord) {
    return s.default ? this.base : `${this.base}/${s.path}`;
  }

  siteSpace(ss: SiteSpaceRecord): Schema<'SiteSpace'> {
    const space = this.visible(ss)!;
    const section = ss.section ? this.tx.get(SiteSections, ss.section) : undefined;
    const prefix = section ? this.sectionAddress(section) : this.base;
    return {
      object: 'site-space' as const,
      id: ss.id,
      path: ss.path,
      ...(ss.section ? { section: ss.section } : {}),
      space: presentSpace(this.ctx, space, this.access.space(space), spaceCounts(this.tx, space.id), this.opts.shareKey),
      title: space.title,
      default: ss.default,
      ...(ss.condition !== undefined ? { condition: ss.condition } : {}),
      hidden: ss.hidden,
      draft: !liveSiteSpace(this.tx, this.site, ss),
      hasAdvancedCustomizationFeature: !!ss.customization,
      urls: this.published(ss.default ? prefix : `${prefix}/${ss.path}`),
    };
  }

  siteSpaces(section: string | null) {
    return siteSpacesIn(this.tx, this.site.id, section)
      .filter((ss) => this.visible(ss))
      .map((ss) => this.siteSpace(ss));
  }

  section(s: SiteSectionRecord): Schema<'SiteSection'> {
    return {
      object: 'site-section' as const,
      id: s.id,
      title: s.title,
      ...(s.description !== undefined ? { description: s.description } : {}),
      default: s.default,
      draft: !liveSection(this.tx, this.site, s),
      path: s.path,
      ...(s.condition !== undefined ? { condition: s.condition } : {}),
      ...(s.group ? { sectionGroup: s.group } : {}),
      ...(s.icon ? { icon: s.icon } : {}),
      siteSpaces: this.siteSpaces(s.id),
      urls: this.published(this.sectionAddress(s)),
    };
  }

  group(g: SiteSectionGroupRecord, links = false): Schema<'SiteSectionGroup'> {
    const children = this.nodes(g.id, links);
    return {
      object: 'site-section-group' as const,
      id: g.id,
      title: g.title,
      ...(g.group ? { sectionGroup: g.group } : {}),
      ...(g.icon ? { icon: g.icon } : {}),
      draft: !liveGroup(this.tx, this.site, g),
      sections: children.filter((c): c is Schema<'SiteSection'> => c.object === 'site-section'),
      children: children as Schema<'SiteSectionGroup'>['children'],
    };
  }

  /**
   * The sections and groups of a container, in order; in the published profile, sections and
   * groups with nothing to show are left out. With `links`, the container's external links
   * follow (0.202.0's structure; docs/manual/site-agents.md#external-links), drafts left out of
   * the published profile.
   */
  nodes(container: string | null, links = false): Array<Schema<'SiteSection'> | Schema<'SiteSectionGroup'> | Schema<'SiteExternalLink'>> {
    const items: Array<Schema<'SiteSection'> | Schema<'SiteSectionGroup'> | Schema<'SiteExternalLink'>> = nodesIn(this.tx, this.site.id, container)
      .map((n: Node): Schema<'SiteSection'> | Schema<'SiteSectionGroup'> => (n.kind === 'section' ? this.section(n.row) : this.group(n.row, links)))
      .filter((n) => !this.opts.published || (n.object === 'site-section' ? n.siteSpaces.length > 0 : n.children.length > 0));
    if (links) for (const l of externalLinksIn(this.tx, this.site.id, container)) if (!this.opts.published || !l.draft) items.push(presentExternalLink(l));
    return items;
  }

  /** The site's structure; with `links` (getSiteStructure), its external links too. */
  structure(links = false): Schema<'SiteStructure'> {
    return hasSections(this.tx, this.site.id)
      ? ({ type: 'sections' as const, structure: this.nodes(null, links) } as Schema<'SiteStructure'>)
      : { type: 'siteSpaces' as const, structure: this.siteSpaces(null) };
  }

  sections() {
    return sectionsOf(this.tx, this.site.id);
  }
}

/** The caller's access to an organization's content, or undefined when they are not a member. */
export function siteViewer(tx: ReadTx, organizationId: string, caller: Caller): ContentAccess | undefined {
  try {
    return contentAccess(tx, organizationId, caller);
  } catch {
    return undefined;
  }
}

/**
 * A site as `viewer` (the caller's access to its organization; none: not a member) sees it:
 * `permissions` are theirs. `appliedType` is `type` (no plan here freezes a site to a lower
 * type); `defaultLevel` is `inherit` (a site's rights follow the member's organization role,
 * src/sites/access.ts); `urls.preview` is where a member sees the site as it stands: the
 * published address once published, else the site's page in the app (docs/manual/contract.md#the-newest-spec-is-part-of-the-contract).
 */
export function presentSite(ctx: Context, tx: ReadTx, org: OrganizationRecord, site: SiteRecord, shareKey?: string, viewer?: ContentAccess): Schema<'Site'> {
  const base = siteAddress(ctx, org, site);
  const app = `${ctx.baseUrl}/o/${org.id}/sites/${site.id}`;
  const published = site.published ? withKey(base, shareKey) : undefined;
  return {
    object: 'site' as const,
    id: site.id,
    type: site.type,
    appliedType: site.type,
    defaultLevel: 'inherit' as const,
    permissions: sitePermissions(tx, site, viewer),
    title: site.title,
    basename: site.basename,
    ...(site.proxy ? { proxy: { origin: site.proxy, target: `${ctx.baseUrl}/sites/${org.hostname ?? org.id}/${site.basename}` } } : {}),
    visibility: site.visibility,
    published: site.published,
    siteSpaces: siteSpacesOfSite(tx, site.id).filter((ss) => tx.get(Spaces, ss.space)).length,
    createdAt: site.createdAt,
    adaptiveContent: site.adaptiveContent,
    agentsContext: site.agentsContext,
    ...(site.styleguide ? { styleguide: { kind: 'space' as const, space: site.styleguide } } : {}),
    ads: presentSiteAds(tx, site, sitePermissions(tx, site, viewer).admin),
    features: [],
    urls: {
      location: apiUrl(ctx, `/orgs/${org.id}/sites/${site.id}`),
      app,
      ...(published ? { published } : {}),
      preview: published ?? app,
    },
  };
}

export function presentShareLink(ctx: Context, org: OrganizationRecord, site: SiteRecord, l: ShareLinkRecord): Schema<'ShareLink'> {
  return {
    object: 'share-link' as const,
    id: l.id,
    createdAt: l.createdAt,
    name: l.name,
    active: l.active,
    urls: { published: withKey(siteAddress(ctx, org, site), l.key) },
  };
}
