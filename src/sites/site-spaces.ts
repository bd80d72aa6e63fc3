import { onlyFields } from '../collections/service.js';
import type { Caller, Context } from '../kernel/context.js';
import { conflict, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { contentAccess } from '../tree/access.js';
import { checkCondition } from './conditions.js';
import type { SiteRecord, SiteSpaceRecord } from './model.js';
import { checkPath, slugify, uniquePath } from './paths.js';
import { defaultSection, endOf, hasSections, siteSpacesIn } from './rows.js';
import { SiteSections, SiteSpaces } from './tables.js';
import { Spaces } from '../spaces/tables.js';

/**
 * A space the caller may put on a site: live, in the site's organization, and visible to the
 * caller (a site must not become a way to publish what one cannot even read). 400 otherwise.
 */
export function requireSpace(tx: ReadTx, caller: Caller, site: SiteRecord, spaceId: string, field = 'spaceId'): SpaceRecord {
  const space = tx.get(Spaces, spaceId);
  const ok = space && !space.deletedAt && space.organization === site.organization && contentAccess(tx, site.organization, caller).space(space);
  if (!ok) throw invalid(`${field}: no space ${spaceId} in this organization`);
  return space!;
}

/** A site space of this site, or 404. */
export function siteSpaceOf(tx: ReadTx, site: SiteRecord, id: string): SiteSpaceRecord {
  const row = tx.get(SiteSpaces, id);
  if (!row || row.site !== site.id) throw notFound(`site space ${id} not found in site ${site.id}`);
  return row;
}

/**
 * Puts `space` on the site at the end of `section` (null: the root of a flat site). Its path comes
 * from the space's title, unique in its container; the first site space of a container is its
 * default. The same space twice in one container is a 409 (a section may hold several variants,
 * but of different spaces).
 */
export function insertSiteSpace(tx: WriteTx, ctx: Context, site: SiteRecord, space: SpaceRecord, section: string | null): SiteSpaceRecord {
  const siblings = siteSpacesIn(tx, site.id, section);
  if (siblings.some((s) => s.space === space.id)) {
    throw conflict(`space ${space.id} is already on site ${site.id}${section ? ` in section ${section}` : ''}`);
  }
  return tx.put(SiteSpaces, {
    id: newId(),
    organization: site.organization,
    site: site.id,
    space: space.id,
    section,
    path: uniquePath(
      slugify(space.title),
      siblings.map((s) => s.path),
    ),
    hidden: false,
    default: siblings.length === 0,
    position: endOf(siblings),
    createdAt: ctx.clock.now().toISOString(),
  });
}

/** POST site-spaces: into `sectionId`, else the default section, else the root of a flat site. */
export function addSpaceToSite(tx: WriteTx, ctx: Context, caller: Caller, site: SiteRecord, body: { spaceId: string; sectionId?: string }) {
  onlyFields(body, ['spaceId', 'sectionId'], 'POST .../site-spaces');
  const space = requireSpace(tx, caller, site, body.spaceId);
  let section: string | null = null;
  if (body.sectionId !== undefined) {
    const s = tx.get(SiteSections, body.sectionId);
    if (!s || s.site !== site.id) throw invalid(`sectionId: no section ${body.sectionId} in site ${site.id}`);
    section = s.id;
  } else if (hasSections(tx, site.id)) {
    const d = defaultSection(tx, site.id);
    if (!d) throw invalid(`sectionId: site ${site.id} has section groups but no section yet: add a section first`);
    section = d.id;
  }
  return insertSiteSpace(tx, ctx, site, space, section);
}

export interface SiteSpacePatch {
  path?: string;
  condition?: string | null;
  spaceId?: string;
  /** API.md's extra field: checked here (a boolean). */
  hidden?: unknown;
}

/** PATCH site-spaces/{id}: path (unique in its container), condition (null removes), spaceId, hidden. */
export function updateSiteSpace(tx: WriteTx, caller: Caller, site: SiteRecord, id: string, body: SiteSpacePatch): SiteSpaceRecord {
  const row = siteSpaceOf(tx, site, id);
  const accepted = ['path', 'condition', 'spaceId', 'hidden'];
  onlyFields(body, accepted, 'PATCH .../site-spaces/{siteSpaceId}');
  if (!Object.keys(body).length) throw invalid(`body: give at least one of ${accepted.join(', ')}`);
  const next: SiteSpaceRecord = { ...row };
  const siblings = siteSpacesIn(tx, site.id, row.section).filter((s) => s.id !== id);
  if (body.path !== undefined) {
    next.path = checkPath(body.path);
    if (siblings.some((s) => s.path === next.path))
      throw conflict(`path: ${next.path} is already the path of another site space ${row.section ? `in section ${row.section}` : 'of this site'}`);
  }
  if (body.condition !== undefined) {
    if (body.condition === null) delete next.condition;
    else next.condition = checkCondition(body.condition);
  }
  if (body.spaceId !== undefined) {
    next.space = requireSpace(tx, caller, site, body.spaceId).id;
    if (siblings.some((s) => s.space === next.space)) throw conflict(`spaceId: space ${next.space} is already on site ${site.id} in the same place`);
  }
  if (body.hidden !== undefined) {
    if (typeof body.hidden !== 'boolean') throw invalid('hidden: must be a boolean');
    // The default site space is where visitors land: hiding it would leave them nowhere.
    if (body.hidden && row.default) throw invalid(`hidden: site space ${id} is the default one and cannot be hidden (make another one the default first)`);
    next.hidden = body.hidden;
  }
  return tx.put(SiteSpaces, next);
}

/**
 * Makes `id` the default site space of its container (the others lose the flag): one default
 * per section, and one at the root of a flat site.
 */
export function setDefaultSiteSpace(tx: WriteTx, site: SiteRecord, row: SiteSpaceRecord, field: string): void {
  if (row.hidden) throw invalid(`${field}: site space ${row.id} is hidden and cannot be the default`);
  for (const s of siteSpacesIn(tx, site.id, row.section)) {
    if (s.default !== (s.id === row.id)) tx.put(SiteSpaces, { ...s, default: s.id === row.id });
  }
}

/** After removing a container's default, the first remaining visible site space takes over. */
export function ensureDefaultSiteSpace(tx: WriteTx, site: string, section: string | null): void {
  const rest = siteSpacesIn(tx, site, section);
  if (rest.length && !rest.some((s) => s.default)) {
    const next = rest.find((s) => !s.hidden) ?? rest[0]!;
    tx.put(SiteSpaces, { ...next, default: true });
  }
}

/** DELETE site-spaces/{id}: true when it existed. The space itself is untouched. */
export function deleteSiteSpace(tx: WriteTx, site: SiteRecord, id: string): boolean {
  const row = tx.get(SiteSpaces, id);
  if (!row || row.site !== site.id) return false;
  tx.delete(SiteSpaces, id);
  ensureDefaultSiteSpace(tx, site.id, row.section);
  return true;
}

/** When a space is purged for good, it leaves every site it was on (src/space-purge.ts). */
export function removeSpaceFromSites(tx: WriteTx, spaceId: string): void {
  for (const row of tx.find(SiteSpaces, 'space', spaceId)) {
    tx.delete(SiteSpaces, row.id);
    ensureDefaultSiteSpace(tx, row.site, row.section);
  }
}

/** Site spaces on a site of `organization` that point at `spaceId` (transfer blockers). */
export const siteSpacesOfSpace = (tx: ReadTx, spaceId: string) => tx.find(SiteSpaces, 'space', spaceId);
