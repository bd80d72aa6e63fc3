import { onlyFields } from '../collections/service.js';
import type { Caller, Context } from '../kernel/context.js';
import { conflict, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { checkCondition } from './conditions.js';
import { GROUP_TITLE, SECTION_TITLE, type SiteRecord, type SiteSectionGroupRecord, type SiteSectionRecord } from './model.js';
import { checkPath, slugify, uniquePath } from './paths.js';
import { endOf, nodesIn, sectionsOf, siteSpacesIn, tableOfNode } from './rows.js';
import { insertSiteSpace, requireSpace, setDefaultSiteSpace, siteSpaceOf } from './site-spaces.js';
import { SiteExternalLinks, SiteSectionGroups, SiteSections, SiteSpaces } from './tables.js';

// Sections and section groups. Section paths are unique in the whole site, not only among the
// sections of one group: groups are navigation only and take no part in published URLs, so two
// sections with one path would share one address.

function title(value: unknown, rule: { min: number; max: number }, field = 'title'): string {
  const t = String(value).trim();
  if (t.length < rule.min || t.length > rule.max) throw invalid(`${field}: must be ${rule.min} to ${rule.max} characters`);
  return t;
}

export function sectionOf(tx: ReadTx, site: SiteRecord, id: string): SiteSectionRecord {
  const row = tx.get(SiteSections, id);
  if (!row || row.site !== site.id) throw notFound(`section ${id} not found in site ${site.id}`);
  return row;
}

export function groupOf(tx: ReadTx, site: SiteRecord, id: string): SiteSectionGroupRecord {
  const row = tx.get(SiteSectionGroups, id);
  if (!row || row.site !== site.id) throw notFound(`section group ${id} not found in site ${site.id}`);
  return row;
}

function newSection(tx: WriteTx, ctx: Context, site: SiteRecord, t: string, icon?: string): SiteSectionRecord {
  const sections = sectionsOf(tx, site.id);
  return tx.put(SiteSections, {
    id: newId(),
    organization: site.organization,
    site: site.id,
    title: t,
    path: uniquePath(
      slugify(t),
      sections.map((s) => s.path),
    ),
    ...(icon ? { icon } : {}),
    group: null,
    position: endOf(nodesIn(tx, site.id, null).map((n) => n.row)),
    default: !sections.some((s) => s.default),
    createdAt: ctx.clock.now().toISOString(),
  });
}

/**
 * A new section right after `after`, in the same container (the sections and groups after it
 * move one place down), titled `t` (cut to the section title's limit): duplicateSiteSpace's
 * sibling section (docs/manual/site-agents.md#duplicating-a-site-space).
 */
export function sectionAfter(tx: WriteTx, ctx: Context, site: SiteRecord, after: SiteSectionRecord, t: string): SiteSectionRecord {
  const row = { ...newSection(tx, ctx, site, t.slice(0, SECTION_TITLE.max).trim().padEnd(SECTION_TITLE.min, '.')), group: after.group };
  const order = nodesIn(tx, site.id, after.group).filter((n) => n.row.id !== row.id);
  const at = order.findIndex((n) => n.row.id === after.id);
  order.splice(at + 1, 0, { kind: 'section', row });
  order.forEach((n, position) => tx.put(tableOfNode(n), { ...(n.row.id === row.id ? row : tx.get<any>(tableOfNode(n), n.row.id)), position }));
  return tx.get(SiteSections, row.id)!;
}

/**
 * Turns a flat site into a site of sections without losing content: its site spaces move into a
 * default section named after the site. Called before the first section or group is added.
 */
function wrapFlatSite(tx: WriteTx, ctx: Context, site: SiteRecord): void {
  const flat = siteSpacesIn(tx, site.id, null);
  if (!flat.length || sectionsOf(tx, site.id).length) return;
  const wrap = newSection(tx, ctx, site, site.title);
  flat.forEach((s) => tx.put(SiteSpaces, { ...s, section: wrap.id }));
}

/**
 * POST sections: a new section at the end of the site's root, with `spaceId` as its first site
 * space. The title defaults to the space's title (a one-letter title becomes "Section"). When
 * the site was a flat list of site spaces, those move first into a default section named after
 * the site, so no content leaves the site by adding a section.
 */
export function addSection(
  tx: WriteTx,
  ctx: Context,
  caller: Caller,
  site: SiteRecord,
  body: { spaceId: string; title?: string | null; icon?: string | null },
) {
  onlyFields(body, ['spaceId', 'title', 'icon'], 'POST .../sections');
  const space = requireSpace(tx, caller, site, body.spaceId);
  const t = body.title != null ? title(body.title, SECTION_TITLE) : space.title.trim().length >= SECTION_TITLE.min ? space.title.trim() : 'Section';
  wrapFlatSite(tx, ctx, site);
  const section = newSection(tx, ctx, site, t, body.icon ?? undefined);
  insertSiteSpace(tx, ctx, site, space, section.id);
  return tx.get(SiteSections, section.id)!;
}

export interface SectionPatch {
  title?: string;
  path?: string;
  defaultSiteSpace?: string;
  condition?: string | null;
  icon?: string | null;
  description?: string | null;
  /** The latest spec's move: into this section group (at its end), or to the site's root with null. */
  siteSectionGroupId?: unknown;
}

/** The group a section or group moves into (null: the root), checked: in the site, and not the item itself or within it. */
function moveTarget(tx: ReadTx, site: SiteRecord, value: unknown, field: string, self?: string): string | null {
  if (value === null) return null;
  if (typeof value !== 'string') throw invalid(`${field}: must be a section group id or null (the site's root)`);
  const g = tx.get(SiteSectionGroups, value);
  if (!g || g.site !== site.id) throw invalid(`${field}: no section group ${value} in site ${site.id}`);
  for (let at: string | null = g.id; at !== null; at = tx.get(SiteSectionGroups, at)?.group ?? null)
    if (at === self) throw invalid(`${field}: section group ${self} cannot move into itself or a group within it`);
  return g.id;
}

export function updateSection(tx: WriteTx, site: SiteRecord, id: string, body: SectionPatch): SiteSectionRecord {
  const row = sectionOf(tx, site, id);
  const accepted = ['title', 'path', 'defaultSiteSpace', 'condition', 'icon', 'description', 'siteSectionGroupId'];
  onlyFields(body, accepted, 'PATCH .../sections/{siteSectionId}');
  if (!Object.keys(body).length) throw invalid(`body: give at least one of ${accepted.join(', ')}`);
  const next: SiteSectionRecord = { ...row };
  if (body.title !== undefined) next.title = title(body.title, SECTION_TITLE);
  if (body.path !== undefined) {
    next.path = checkPath(body.path);
    if (sectionsOf(tx, site.id).some((s) => s.id !== id && s.path === next.path))
      throw conflict(`path: ${next.path} is already the path of another section of this site`);
  }
  if (body.condition !== undefined) {
    if (body.condition === null) delete next.condition;
    else next.condition = checkCondition(body.condition);
  }
  for (const k of ['icon', 'description'] as const) {
    if (body[k] === null) delete next[k];
    else if (body[k] !== undefined) next[k] = body[k]!;
  }
  if (body.description && body.description.length > 256) throw invalid('description: must be at most 256 characters');
  if (body.defaultSiteSpace !== undefined) {
    const ss = siteSpaceOf(tx, site, body.defaultSiteSpace);
    if (ss.section !== id) throw invalid(`defaultSiteSpace: site space ${ss.id} is not in section ${id}`);
    setDefaultSiteSpace(tx, site, ss, 'defaultSiteSpace');
  }
  // A move to another container: the same section (id, path, site spaces), at the end of it.
  if (body.siteSectionGroupId !== undefined) {
    const group = moveTarget(tx, site, body.siteSectionGroupId, 'siteSectionGroupId');
    if (group !== row.group) Object.assign(next, { group, position: endOf(nodesIn(tx, site.id, group).map((n) => n.row)) });
  }
  return tx.put(SiteSections, next);
}

/** Makes `section` the site's one default section. */
export function setDefaultSection(tx: WriteTx, site: SiteRecord, sectionId: string, field: string): void {
  const target = tx.get(SiteSections, sectionId);
  if (!target || target.site !== site.id) throw invalid(`${field}: no section ${sectionId} in site ${site.id}`);
  for (const s of sectionsOf(tx, site.id)) if (s.default !== (s.id === sectionId)) tx.put(SiteSections, { ...s, default: s.id === sectionId });
}

/** DELETE sections/{id}: the section with its site spaces (not the spaces); the next section becomes default. */
export function deleteSection(tx: WriteTx, site: SiteRecord, id: string): boolean {
  const row = tx.get(SiteSections, id);
  if (!row || row.site !== site.id) return false;
  for (const ss of siteSpacesIn(tx, site.id, id)) tx.delete(SiteSpaces, ss.id);
  tx.delete(SiteSections, id);
  const rest = sectionsOf(tx, site.id);
  if (row.default && rest.length) tx.put(SiteSections, { ...rest[0]!, default: true });
  return true;
}

/** POST section-groups: at the end of `parent` (or the root), taking `sections` in, in the order given. */
export function addGroup(tx: WriteTx, ctx: Context, site: SiteRecord, body: { title: string; icon?: string | null; sections?: string[]; parent?: string }) {
  onlyFields(body, ['title', 'icon', 'sections', 'parent'], 'POST .../section-groups');
  const t = title(body.title, GROUP_TITLE);
  let parent: string | null = null;
  if (body.parent !== undefined) {
    const p = tx.get(SiteSectionGroups, body.parent);
    if (!p || p.site !== site.id) throw invalid(`parent: no section group ${body.parent} in site ${site.id}`);
    parent = p.id;
  }
  const members = [...new Set(body.sections ?? [])].map((sid) => {
    const s = tx.get(SiteSections, sid);
    if (!s || s.site !== site.id) throw invalid(`sections: no section ${sid} in site ${site.id}`);
    return s;
  });
  wrapFlatSite(tx, ctx, site);
  const group = tx.put(SiteSectionGroups, {
    id: newId(),
    organization: site.organization,
    site: site.id,
    title: t,
    ...(body.icon ? { icon: body.icon } : {}),
    group: parent,
    position: endOf(nodesIn(tx, site.id, parent).map((n) => n.row)),
    createdAt: ctx.clock.now().toISOString(),
  });
  members.forEach((s, position) => tx.put(SiteSections, { ...tx.get(SiteSections, s.id)!, group: group.id, position }));
  return group;
}

export function updateGroup(tx: WriteTx, site: SiteRecord, id: string, body: { title?: string; icon?: string | null; parentSectionGroupId?: unknown }) {
  const row = groupOf(tx, site, id);
  onlyFields(body, ['title', 'icon', 'parentSectionGroupId'], 'PATCH .../section-groups/{siteSectionGroupId}');
  if (!Object.keys(body).length) throw invalid('body: give at least one of title, icon, parentSectionGroupId');
  const next: SiteSectionGroupRecord = { ...row };
  if (body.title !== undefined) next.title = title(body.title, GROUP_TITLE);
  if (body.icon === null) delete next.icon;
  else if (body.icon !== undefined) next.icon = body.icon;
  // The latest spec's move: into another group (at its end) or to the root with null, with what it holds.
  if (body.parentSectionGroupId !== undefined) {
    const parent = moveTarget(tx, site, body.parentSectionGroupId, 'parentSectionGroupId', id);
    if (parent !== row.group) Object.assign(next, { group: parent, position: endOf(nodesIn(tx, site.id, parent).map((n) => n.row)) });
  }
  return tx.put(SiteSectionGroups, next);
}

/**
 * DELETE section-groups/{id}: the group goes; what it held (sections and groups) takes its place
 * in its parent, in order. Deleting a group never deletes content or sections.
 */
export function deleteGroup(tx: WriteTx, site: SiteRecord, id: string): boolean {
  const row = tx.get(SiteSectionGroups, id);
  if (!row || row.site !== site.id) return false;
  const children = nodesIn(tx, site.id, id);
  const siblings = nodesIn(tx, site.id, row.group);
  const at = siblings.findIndex((n) => n.row.id === id);
  tx.delete(SiteSectionGroups, id);
  const order = [...siblings.slice(0, at), ...children, ...siblings.slice(at + 1)];
  order.forEach((n, position) => tx.put(tableOfNode(n), { ...tx.get<any>(tableOfNode(n), n.row.id), group: row.group, position }));
  // Its external links follow its sections, after the parent's own links.
  const parentLinks = tx.find(SiteExternalLinks, 'site', site.id).filter((l) => l.group === row.group);
  let end = endOf(parentLinks);
  for (const l of tx
    .find(SiteExternalLinks, 'site', site.id)
    .filter((x) => x.group === id)
    .sort((a, b) => a.position - b.position))
    tx.put(SiteExternalLinks, { ...l, group: row.group, position: end++ });
  return true;
}

/** POST section-groups/{id}/sections: the section moves to the end of the group. */
export function addSectionToGroup(tx: WriteTx, site: SiteRecord, groupId: string, sectionId: string) {
  const group = groupOf(tx, site, groupId);
  const s = tx.get(SiteSections, sectionId);
  if (!s || s.site !== site.id) throw invalid(`sectionId: no section ${sectionId} in site ${site.id}`);
  if (s.group === groupId) throw conflict(`nothing to change: section ${sectionId} is already in group ${groupId}`);
  tx.put(SiteSections, { ...s, group: groupId, position: endOf(nodesIn(tx, site.id, groupId).map((n) => n.row)) });
  return group;
}

/** DELETE section-groups/{g}/sections/{s}: the section goes to the end of the group's parent. False when it was not in the group. */
export function removeSectionFromGroup(tx: WriteTx, site: SiteRecord, groupId: string, sectionId: string): boolean {
  const group = groupOf(tx, site, groupId);
  const s = tx.get(SiteSections, sectionId);
  if (!s || s.site !== site.id || s.group !== groupId) return false;
  tx.put(SiteSections, { ...s, group: group.group, position: endOf(nodesIn(tx, site.id, group.group).map((n) => n.row)) });
  return true;
}
