import type { OrganizationRecord } from '../../organizations/model.js';
import { siteCustomization, siteSpaceCustomization, type Settings } from '../../sites/customization.js';
import { externalLinksIn } from '../../sites/agents.js';
import type { SiteExternalLinkRecord, SiteRecord, SiteSectionGroupRecord, SiteSectionRecord, SiteSpaceRecord } from '../../sites/model.js';
import { hasSections, nodesIn, siteSpacesIn, type Node } from '../../sites/rows.js';
import { validShareKey } from '../../sites/share-links.js';
import type { SpaceRecord } from '../../spaces/model.js';
import type { ReadTx } from '../../store/port.js';
import { satisfies } from './conditions.js';
import type { Visitor } from './visitor.js';
import { Organizations } from '../../organizations/tables.js';
import { CustomHostnames, Sites } from '../../sites/tables.js';
import { Spaces } from '../../spaces/tables.js';

// A published site as one visitor sees it: which sections and site spaces they may reach (and
// which of those are listed), at which addresses, and where a URL under the site leads. Built
// from the same rows as the API's published profile (src/sites/published.ts): a site that is
// not published, a space deleted, a condition the visitor's claims do not satisfy: not there.

export interface SiteRef {
  org: OrganizationRecord;
  site: SiteRecord;
  /** The site's path on this server: `/sites/<org hostname or id>/<basename>`. */
  base: string;
}

export interface SpaceEntry {
  ss: SiteSpaceRecord;
  space: SpaceRecord;
  section: SectionEntry;
  url: string;
  /** Hidden site spaces are reachable (when a condition opens them) but not listed. */
  listed: boolean;
}

export interface SectionEntry {
  row: SiteSectionRecord | null;
  url: string;
  title: string;
  spaces: SpaceEntry[];
}

export type NavNode =
  | { kind: 'section'; section: SectionEntry }
  | { kind: 'group'; row: SiteSectionGroupRecord; children: NavNode[] }
  // An external link of the navigation (docs/manual/site-agents.md#external-links).
  | { kind: 'link'; row: SiteExternalLinkRecord };

export interface SiteView extends SiteRef {
  /** Top navigation (sections and section groups); empty for a site of site spaces only. */
  nav: NavNode[];
  /** Every reachable section in navigation order (one, without a row, for a flat site). */
  sections: SectionEntry[];
  visitor: Visitor;
}

/** The published site at `/sites/<orgKey>/<basename>`, or undefined (unknown or unpublished alike). */
export function findSite(tx: ReadTx, orgKey: string, basename: string): SiteRef | undefined {
  const org = tx.get(Organizations, orgKey) ?? tx.find(Organizations, 'hostname', orgKey)[0];
  if (!org) return undefined;
  // An organization with a hostname publishes under it; its id is accepted as well (old links).
  const site = tx.find(Sites, 'organization', org.id).find((s) => s.basename === basename);
  if (!site?.published) return undefined;
  return siteRef(org, site);
}

/** A site and its path on this server, published or not (the API's site search reads an unpublished site's structure too). */
export const siteRef = (org: OrganizationRecord, site: SiteRecord): SiteRef => ({
  org,
  site,
  base: `/sites/${encodeURIComponent(org.hostname ?? org.id)}/${encodeURIComponent(site.basename)}`,
});

/**
 * The address of the published site a custom hostname serves, once its DNS check passed
 * (docs/manual/site-delivery.md#custom-hostnames); undefined for any other name.
 */
export function siteForHostname(tx: ReadTx, name: string): SiteRef | undefined {
  const row = tx.get(CustomHostnames, name);
  if (row?.status !== 'live') return undefined;
  const site = tx.get(Sites, row.site);
  const org = site && tx.get(Organizations, site.organization);
  return org ? findSite(tx, org.hostname ?? org.id, site.basename) : undefined;
}

/**
 * Whether the visitor may see the site at all: `public` and `unlisted` sites, anyone (API.md:
 * unlisted is "anyone, not indexed": its pages say noindex and robots.txt disallows all);
 * `share-link` sites, a visitor with the key of an active share link; `visitor-auth` sites, a
 * visitor with a valid signed token. Everyone else gets the same 404 as for no site.
 */
export function mayEnter(tx: ReadTx, site: SiteRecord, visitor: Visitor): boolean {
  switch (site.visibility) {
    case 'public':
    case 'unlisted':
      return true;
    case 'share-link':
      return !!visitor.shareKey && validShareKey(tx, site, visitor.shareKey);
    case 'visitor-auth':
      return visitor.signed;
  }
  return false;
}

function reachable(tx: ReadTx, ss: SiteSpaceRecord, visitor: Visitor): SpaceRecord | undefined {
  const space = tx.get(Spaces, ss.space);
  if (!space || space.deletedAt) return undefined;
  // A hidden site space answers only where a condition opens it to this visitor.
  if (ss.hidden && ss.condition === undefined) return undefined;
  return satisfies(ss.condition, visitor) ? space : undefined;
}

/** The site as this visitor sees it (call after `mayEnter`). */
export function siteView(tx: ReadTx, ref: SiteRef, visitor: Visitor): SiteView {
  const sections: SectionEntry[] = [];
  const entry = (row: SiteSectionRecord | null): SectionEntry | undefined => {
    if (row && !satisfies(row.condition, visitor)) return undefined;
    const url = row && !row.default ? `${ref.base}/${row.path}` : ref.base;
    const section: SectionEntry = { row, url, title: row?.title ?? ref.site.title, spaces: [] };
    for (const ss of siteSpacesIn(tx, ref.site.id, row?.id ?? null)) {
      const space = reachable(tx, ss, visitor);
      if (space) section.spaces.push({ ss, space, section, url: ss.default ? url : `${url}/${ss.path}`, listed: !ss.hidden });
    }
    return section.spaces.length ? section : undefined;
  };
  const walk = (container: string | null): NavNode[] =>
    nodesIn(tx, ref.site.id, container)
      .flatMap((n: Node): NavNode[] => {
        if (n.kind === 'group') {
          const children = walk(n.row.id);
          return children.length ? [{ kind: 'group', row: n.row, children }] : [];
        }
        const s = entry(n.row);
        if (!s) return [];
        sections.push(s);
        return [{ kind: 'section', section: s }];
      })
      .concat(
        // The container's external links follow its sections and groups; a draft one, or one whose
        // condition this visitor does not meet, is not shown.
        externalLinksIn(tx, ref.site.id, container)
          .filter((l) => !l.draft && satisfies(l.condition, visitor))
          .map((row): NavNode => ({ kind: 'link', row })),
      );
  let nav: NavNode[] = [];
  if (hasSections(tx, ref.site.id)) nav = walk(null);
  else {
    const flat = entry(null);
    if (flat) sections.push(flat);
  }
  return { ...ref, nav, sections, visitor };
}

export type Located =
  | { kind: 'space'; entry: SpaceEntry; rest: string[] }
  /** The address of a section or the site whose default is not reachable: go to the first reachable. */
  | { kind: 'redirect'; to: string }
  | { kind: 'none' };

/** Where the segments after the site's address lead: a site space and a page path in it. */
export function locate(view: SiteView, segments: string[]): Located {
  let i = 0;
  let section = view.sections.find((s) => s.row && !s.row.default && s.row.path === segments[0]);
  if (section) i++;
  else section = view.sections.find((s) => !s.row || s.row.default);
  if (!section) return segments.length === 0 && view.sections[0] ? { kind: 'redirect', to: view.sections[0].url } : { kind: 'none' };
  let entry = section.spaces.find((e) => !e.ss.default && e.ss.path === segments[i]);
  if (entry) i++;
  else entry = section.spaces.find((e) => e.ss.default);
  if (!entry) {
    const first = section.spaces.find((e) => e.listed) ?? section.spaces[0];
    return i === segments.length && first ? { kind: 'redirect', to: first.url } : { kind: 'none' };
  }
  return { kind: 'space', entry, rest: segments.slice(i) };
}

/** The settings a site space shows: the site's customization with the site space's overrides. */
// Settings by the rows they are drawn from (rows are immutable: a write puts a new row), so a
// request does not complete the customization again. Read only: callers never change them.
const siteSettings = new WeakMap<object, Settings>();
const spaceSettings = new WeakMap<object, WeakMap<object, Settings>>();

export function settingsOf(view: SiteRef, entry?: SpaceEntry): Settings {
  if (entry?.ss.customization) {
    let bySite = spaceSettings.get(entry.ss);
    if (!bySite) spaceSettings.set(entry.ss, (bySite = new WeakMap()));
    let got = bySite.get(view.site);
    if (!got) bySite.set(view.site, (got = siteSpaceCustomization(view.site, entry.ss)));
    return got;
  }
  let got = siteSettings.get(view.site);
  if (!got) siteSettings.set(view.site, (got = siteCustomization(view.site)));
  return got;
}

/** Every listed site space in navigation order (for llms.txt, sitemaps, search). */
export const listedSpaces = (view: SiteView) => view.sections.flatMap((s) => s.spaces.filter((e) => e.listed));
