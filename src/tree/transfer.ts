import type { Caller } from '../kernel/context.js';
import { conflict, DocsError, forbidden } from '../kernel/errors.js';
import { atLeast } from '../kernel/roles.js';
import { memberRowId } from '../organizations/model.js';
import { requireOrgRole } from '../organizations/service.js';
import type { SiteRecord } from '../sites/model.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { ReadTx } from '../store/port.js';
import { contentAccess, type ContentAccess } from './access.js';
import { Members } from '../organizations/tables.js';
import { SiteSpaces, Sites } from '../sites/tables.js';

/**
 * Checks a transfer of `what` from `source`'s organization to `targetId`: the caller must be an
 * admin of both (404 when not a member of the target, as for any organization they cannot
 * see); moving to the organization it is already in is a 409. Returns the target's access.
 */
export function checkTransfer(tx: ReadTx, caller: Caller, source: ContentAccess, targetId: string, what: string): ContentAccess {
  requireOrgRole(source.member, 'admin', `transferring ${what}`);
  if (targetId === source.org.id) throw conflict(`nothing to change: ${what} is already in organization ${targetId}`);
  const target = contentAccess(tx, targetId, caller);
  if (!atLeast(target.member.role, 'admin')) {
    throw forbidden(`transferring ${what} needs the admin role in the target organization ${targetId} (you have ${target.member.role ?? 'guest'})`);
  }
  return target;
}

const isActiveMember = (tx: ReadTx, organization: string, user: string) => {
  const m = tx.get(Members, memberRowId(organization, user));
  return !!m && !m.disabled;
};

/**
 * Why `space` cannot be moved to organization `target` (412), or nothing. Every reason that
 * blocks a transfer goes here, so later areas extend this one function:
 *
 * - merge rules that name reviewers who are not members of the target organization: after the
 *   move nobody could satisfy them, so nothing could ever be merged there.
 * - a space on a site of its current organization (published or not): the site would point at
 *   content its organization no longer owns; remove it from the site first.
 */
export function transferBlockers(tx: ReadTx, space: SpaceRecord, target: string): string[] {
  const reasons: string[] = [];
  if (space.mergeRules.type === 'rules') {
    const outsiders = new Set<string>();
    for (const rule of space.mergeRules.rules) for (const u of rule.users ?? []) if (!isActiveMember(tx, target, u)) outsiders.add(u);
    if (outsiders.size)
      reasons.push(`space ${space.id}: its merge rules name reviewers who are not members of organization ${target} (${[...outsiders].join(', ')})`);
  }
  const sites = new Map<string, SiteRecord>();
  for (const ss of tx.find(SiteSpaces, 'space', space.id)) {
    const site = tx.get(Sites, ss.site);
    if (site) sites.set(site.id, site);
  }
  for (const site of sites.values()) {
    reasons.push(`space ${space.id} is on ${site.published ? 'published' : 'unpublished'} site ${site.id} of its organization (remove it from the site first)`);
  }
  return reasons;
}

/** 412 naming every reason when any of `spaces` cannot move to `target`. */
export function requireTransferable(tx: ReadTx, spaces: SpaceRecord[], target: string, what: string): void {
  const reasons = spaces.flatMap((s) => transferBlockers(tx, s, target));
  if (reasons.length) throw new DocsError('precondition', `${what} cannot be moved: ${reasons.join('; ')}`);
}
