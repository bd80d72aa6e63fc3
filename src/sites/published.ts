import type { Caller, Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { membershipOf } from '../organizations/service.js';
import type { ReadTx } from '../store/port.js';
import { siteCustomization, siteSpaceCustomization, type Settings } from './customization.js';
import type { SiteSpaceRecord } from './model.js';
import { SitePresenter } from './present.js';
import { siteSpacesOfSite } from './rows.js';
import { requireShareKey } from './share-links.js';
import { Sites } from './tables.js';

/**
 * The published profile: what a renderer needs to serve the site to its audience. Only a
 * published site has one (404 otherwise); a `share-link` site answers only with the key of an
 * active share link (404 otherwise, whatever the caller's role: this is the audience's view).
 * `visitor-auth` sites answer, marked by their visibility, for the renderer to authenticate
 * visitors. Hidden site spaces, and those whose space is deleted, are left out; so are sections
 * left with nothing to show.
 */
export function publishedProfile(tx: ReadTx, ctx: Context, caller: Caller, organizationId: string, siteId: string, shareKey?: string) {
  const { org } = membershipOf(tx, organizationId, caller);
  const site = tx.get(Sites, siteId);
  if (!site || site.organization !== org.id || !site.published) throw notFound(`no published site ${siteId}`);
  if (site.visibility === 'share-link') {
    if (shareKey === undefined) throw notFound(`site ${siteId} is shared by link only: give the shareKey of one of its share links`);
    requireShareKey(tx, site, shareKey);
  }
  const key = site.visibility === 'share-link' ? shareKey : undefined;
  const p = new SitePresenter(tx, ctx, caller, org, site, { shareKey: key, published: true });
  const structure = p.structure();
  const shown = new Set<string>();
  const collect = (items: any[]) =>
    items.forEach((i) => (i.object === 'site-space' ? shown.add(i.id) : collect(i.object === 'site-section' ? i.siteSpaces : i.children)));
  collect(structure.structure);
  // Per-site-space customizations: the site's settings with the site space's overrides applied,
  // for each shown site space that has overrides (the others show the site's own settings).
  const siteSpaces: Record<string, Settings> = {};
  for (const ss of siteSpacesOfSite(tx, site.id)) {
    if (shown.has(ss.id) && ss.customization) siteSpaces[ss.id] = siteSpaceCustomization(site, ss as SiteSpaceRecord);
  }
  return {
    object: 'published-content-site' as const,
    site: p.presentSite(),
    structure,
    customizations: { site: siteCustomization(site), siteSpaces },
    scripts: [],
  };
}
