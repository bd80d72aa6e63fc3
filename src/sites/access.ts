import type { Caller } from '../kernel/context.js';
import { forbidden, notFound } from '../kernel/errors.js';
import { atLeast, type MemberRole, type Role } from '../kernel/roles.js';
import type { MemberRecord, OrganizationRecord } from '../organizations/model.js';
import { membershipOf, requireOrgRole } from '../organizations/service.js';
import type { ReadTx } from '../store/port.js';
import { higher, MemberGrants } from '../tree/grants.js';
import type { SiteRecord } from './model.js';
import { Sites } from './tables.js';

export interface SiteSeen {
  org: OrganizationRecord;
  member: MemberRecord;
  site: SiteRecord;
}

/**
 * Rights on sites (docs/manual/sites.md): every member with a role (read and up) sees the
 * organization's sites, their structure and customization; changing anything about a site
 * (structure, customization, share links, publishing) needs the admin role, since it changes
 * what the organization shows the world. Non-members get 404, as for every organization resource.
 * A role given on one site (inviteToSite, src/tree/grants.ts) to a member or a team of theirs
 * raises their level on that site only: a member given `admin` on a site administers that site.
 */
export const SITE_READ: Role = 'read';
export const SITE_ADMIN: Role = 'admin';

/** The caller's membership in the organization, with `need` checked (403 naming `action`). */
export function siteMembership(tx: ReadTx, caller: Caller, organizationId: string, need: Role, action: string) {
  const { org, member } = membershipOf(tx, organizationId, caller);
  requireOrgRole(member, need, action);
  return { org, member };
}

/** A site of the organization the caller is a member of (404 otherwise), with `need` checked. */
export function siteOf(tx: ReadTx, caller: Caller, organizationId: string, siteId: string, need: Role, action: string): SiteSeen {
  const { org, member } = membershipOf(tx, organizationId, caller);
  const site = tx.get(Sites, siteId);
  if (!site || site.organization !== org.id) throw notFound(`site ${siteId} not found`);
  requireSiteLevel(tx, member, site, need, action);
  return { org, member, site };
}

/** A member's level on a site: their organization role, raised by the grants on the site. */
export function siteLevel(tx: ReadTx, member: MemberRecord, site: SiteRecord, grants?: MemberGrants): MemberRole {
  if (member.disabled) return null;
  if (member.role === 'admin') return 'admin';
  return higher(member.role, (grants ?? new MemberGrants(tx, member)).on('site', site.id));
}

/** 403 unless the member's level on the site is at least `need`. */
export function requireSiteLevel(tx: ReadTx, member: MemberRecord, site: SiteRecord, need: Role, action: string): void {
  if (atLeast(member.role, need)) return;
  const level = siteLevel(tx, member, site);
  if (!atLeast(level, need)) {
    throw forbidden(`${action} needs the ${need} role in this organization or on site ${site.id} (you have ${level ?? 'guest'})`);
  }
}

/** The organization's sites a member reaches (read and up), through their role or grants. */
export function sitesOfMember(tx: ReadTx, member: MemberRecord): SiteRecord[] {
  const all = tx.find(Sites, 'organization', member.organization);
  if (atLeast(member.role, SITE_READ)) return all;
  const grants = new MemberGrants(tx, member);
  return grants.empty ? [] : all.filter((s) => atLeast(siteLevel(tx, member, s, grants), SITE_READ));
}

/**
 * How many of the organization's sites a member can reach (0.202.0's member `sites`): every
 * one with a role (read and up), for a guest those given to them, as the rights above decide.
 */
export function sitesReachable(tx: ReadTx, member: MemberRecord): number {
  return sitesOfMember(tx, member).length;
}
