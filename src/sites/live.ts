import { atLeast } from '../kernel/roles.js';
import type { ReadTx } from '../store/port.js';
import type { ContentAccess } from '../tree/access.js';
import { SITE_ADMIN, SITE_READ, siteLevel } from './access.js';
import type { SiteRecord, SiteSectionGroupRecord, SiteSectionRecord, SiteSpaceRecord } from './model.js';
import { nodesIn, siteSpacesIn, siteSpacesOfSite } from './rows.js';
import { Spaces } from '../spaces/tables.js';

// What of a site is live, i.e. served to its audience right now (0.202.0's `draft` is the
// opposite), and what the caller may do with a site (0.202.0's `permissions`). docs/manual/contract.md#the-newest-spec-is-part-of-the-contract.
//
// `docs` has no separate published snapshot of a site's structure: publishing serves the current
// structure as it is. So an item is a draft exactly when the published site does not serve it
// (src/urls/site/site.ts): the site is not published; a site space whose space is deleted, or
// that is hidden without a condition that could open it; a section with no live site space; a
// group with no live child.

export function liveSiteSpace(tx: ReadTx, site: SiteRecord, ss: SiteSpaceRecord): boolean {
  if (!site.published) return false;
  const space = tx.get(Spaces, ss.space);
  return !!space && !space.deletedAt && !(ss.hidden && ss.condition === undefined);
}

export function liveSection(tx: ReadTx, site: SiteRecord, section: SiteSectionRecord): boolean {
  return site.published && siteSpacesIn(tx, site.id, section.id).some((ss) => liveSiteSpace(tx, site, ss));
}

export function liveGroup(tx: ReadTx, site: SiteRecord, group: SiteSectionGroupRecord, depth = 0): boolean {
  if (!site.published || depth > 50) return false;
  return nodesIn(tx, site.id, group.id).some((n) => (n.kind === 'section' ? liveSection(tx, site, n.row) : liveGroup(tx, site, n.row, depth + 1)));
}

export interface SitePermissions {
  view: boolean;
  access: boolean;
  edit: boolean;
  create: boolean;
  admin: boolean;
  installIntegration: boolean;
  viewAdaptiveSchema: boolean;
  editAdaptiveSchema: boolean;
}

/**
 * The caller's rights on a site, as the operations decide them (src/sites/access.ts): members
 * with a role see it (view, access, its adaptive schema); admins change it (structure,
 * customization, publishing: create, admin; integrations; the adaptive schema); `edit` is true
 * when the caller may edit the content of at least one of its spaces. No membership: all false.
 */
export function sitePermissions(tx: ReadTx, site: SiteRecord, access: ContentAccess | undefined): SitePermissions {
  const role = access ? siteLevel(tx, access.member, site) : null;
  const view = atLeast(role, SITE_READ);
  const admin = atLeast(role, SITE_ADMIN);
  const edit =
    admin ||
    (!!access &&
      siteSpacesOfSite(tx, site.id).some((ss) => {
        const space = tx.get(Spaces, ss.space);
        return !!space && !space.deletedAt && atLeast(access.space(space), 'edit');
      }));
  return { view, access: view, edit, create: admin, admin, installIntegration: admin, viewAdaptiveSchema: view, editAdaptiveSchema: admin };
}
