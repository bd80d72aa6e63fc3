import { conflict, invalid, notFound } from '../kernel/errors.js';
import type { Table, WriteTx } from '../store/port.js';
import type { SiteRecord, SiteSectionGroupRecord, SiteSectionRecord, SiteSpaceRecord } from './model.js';
import { nodesIn, siteSpacesIn, tableOfNode, type Node } from './rows.js';
import { ensureDefaultSiteSpace } from './site-spaces.js';
import { SiteSpaces, SiteSectionGroups, SiteSections } from './tables.js';

export type ItemType = 'site-space' | 'site-section' | 'site-section-group';
export interface Pointer {
  type: ItemType;
  id: string;
}

const TABLE: Record<ItemType, Table<any>> = { 'site-space': SiteSpaces, 'site-section': SiteSections, 'site-section-group': SiteSectionGroups };

/**
 * Reorders one item among its siblings (sortSiteStructure and the deprecated moves): before or
 * after a sibling, or at the end without either. Site spaces are siblings within their section;
 * sections and groups within their container. The item must exist (404); the position must name
 * one sibling other than the item (400). A site space placed before or after a site space of
 * another section moves into that section (the same site space: its id, path and space), as the
 * structure's drag and drop does; its old section's default passes to the next one there
 * (docs/manual/docs-as-code.md#moving-items-between-containers). Sections and groups move between
 * containers by their PATCH (siteSectionGroupId, parentSectionGroupId) or the groups' routes.
 */
export function sortItem(tx: WriteTx, site: SiteRecord, item: Pointer, position: { before?: Pointer; after?: Pointer } | undefined) {
  const row = tx.get<any>(TABLE[item.type], item.id);
  if (!row || row.site !== site.id) throw notFound(`${item.type} ${item.id} not found in site ${site.id}`);
  const { before, after } = position ?? {};
  if (before && after) throw invalid('position: give before or after, not both');
  const target = before ?? after;
  if (target && target.id === item.id) throw invalid(`position: ${item.type} ${item.id} cannot be placed relative to itself`);

  if (item.type === 'site-space') {
    let ss = row as SiteSpaceRecord;
    // A pointer to no site space of this site is refused below, as not among the siblings.
    const other = target?.type === 'site-space' ? tx.get(SiteSpaces, target.id) : undefined;
    if (other && other.site === site.id && other.section !== ss.section) {
      const there = siteSpacesIn(tx, site.id, other.section);
      if (there.some((s) => s.space === ss.space)) throw conflict(`position: space ${ss.space} is already in the section of site space ${other.id}`);
      if (there.some((s) => s.path === ss.path))
        throw conflict(`position: path ${ss.path} is already the path of a site space in the section of site space ${other.id}`);
      const from = ss.section;
      ss = tx.put(SiteSpaces, { ...ss, section: other.section, default: false, position: there.length });
      ensureDefaultSiteSpace(tx, site.id, from);
    }
    const siblings = siteSpacesIn(tx, site.id, ss.section);
    const order = place(siblings, ss.id, target && (target.type === 'site-space' ? target.id : null), !!after, 'site spaces of the same section');
    order.forEach((r, i) => r.position !== i && tx.put(SiteSpaces, { ...r, position: i }));
    return { type: item.type, row: tx.get(SiteSpaces, ss.id)! };
  }
  const container = (row as SiteSectionRecord | SiteSectionGroupRecord).group;
  const siblings = nodesIn(tx, site.id, container);
  const ids = siblings.map((n) => ({ id: n.row.id, node: n }));
  const targetId = target && (target.type === 'site-space' ? null : target.id);
  const ordered = place(ids, item.id, targetId, !!after, 'sections and groups of the same container');
  ordered.forEach(({ node }: { node: Node }, i: number) => node.row.position !== i && tx.put(tableOfNode(node), { ...node.row, position: i }));
  return { type: item.type, row: tx.get<any>(TABLE[item.type], item.id)! };
}

function place<T extends { id: string }>(siblings: T[], id: string, targetId: string | null | undefined, after: boolean, what: string): T[] {
  const me = siblings.find((s) => s.id === id)!;
  const rest = siblings.filter((s) => s.id !== id);
  if (targetId === undefined) return [...rest, me];
  const at = targetId === null ? -1 : rest.findIndex((s) => s.id === targetId);
  if (at < 0) throw invalid(`position: ${targetId ?? 'that item'} is not among the ${what} as ${id}`);
  rest.splice(after ? at + 1 : at, 0, me);
  return rest;
}
