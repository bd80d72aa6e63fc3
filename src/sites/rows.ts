import type { ReadTx, Table, WriteTx } from '../store/port.js';
import type { SiteSectionGroupRecord, SiteSectionRecord, SiteSpaceRecord } from './model.js';
import { SiteSectionGroups, SiteSections, SiteSpaces } from './tables.js';

// Reading a site's structure in order. Sections and groups that share a container (the site's
// root or a group) are siblings with one order between them, as the structure shows them; site
// spaces are ordered within their section (or the root of a flat site).

export type Node = { kind: 'section'; row: SiteSectionRecord } | { kind: 'group'; row: SiteSectionGroupRecord };

const order = (a: { position: number; createdAt: string; id: string }, b: { position: number; createdAt: string; id: string }) =>
  a.position - b.position || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

export const sectionsOf = (tx: ReadTx, site: string) => tx.find(SiteSections, 'site', site).sort(order);
export const groupsOf = (tx: ReadTx, site: string) => tx.find(SiteSectionGroups, 'site', site).sort(order);
export const siteSpacesOfSite = (tx: ReadTx, site: string) => tx.find(SiteSpaces, 'site', site);

/** Whether the site is organized in sections (any section or group) rather than a flat list. */
export const hasSections = (tx: ReadTx, site: string) => sectionsOf(tx, site).length > 0 || groupsOf(tx, site).length > 0;

/** The site spaces of one section (or of the root, `null`), in order. */
export function siteSpacesIn(tx: ReadTx, site: string, section: string | null): SiteSpaceRecord[] {
  return siteSpacesOfSite(tx, site)
    .filter((s) => s.section === section)
    .sort(order);
}

/** The sections and groups directly in `group` (null: the site's root), in order. */
export function nodesIn(tx: ReadTx, site: string, group: string | null): Node[] {
  return [
    ...sectionsOf(tx, site)
      .filter((s) => s.group === group)
      .map((row) => ({ kind: 'section' as const, row })),
    ...groupsOf(tx, site)
      .filter((g) => g.group === group)
      .map((row) => ({ kind: 'group' as const, row })),
  ].sort((a, b) => order(a.row, b.row));
}

export const endOf = (rows: { position: number }[]) => Math.max(-1, ...rows.map((r) => r.position)) + 1;

/** The table of a section or group: rows of either kind, so its row type is not checked (`any`). */
export const tableOfNode = (n: Node): Table<any> => (n.kind === 'section' ? SiteSections : SiteSectionGroups);

/** Writes `rows` (of `table`) in the given order, putting only those whose position changes. */
export function writePositions<T extends { id: string; position: number }>(tx: WriteTx, table: Table<T> | ((r: T) => Table<any>), rows: T[]): void {
  rows.forEach((r, position) => {
    const t: Table<T> = typeof table === 'function' ? table(r) : table;
    const current = tx.get(t, r.id)!;
    if (current.position !== position) tx.put(t, { ...current, position });
  });
}

/** The section that is the site's default (at most one), if any. */
export const defaultSection = (tx: ReadTx, site: string) => sectionsOf(tx, site).find((s) => s.default);
