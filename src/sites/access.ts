import type { Caller } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { atLeast, type MemberRole, type Role } from '../kernel/roles.js';
import type { MemberRecord, OrganizationRecord } from '../organizations/model.js';
import { membershipOf, requireOrgRole } from '../organizations/service.js';
import type { ReadTx } from '../store/port.js';
import type { SiteRecord } from './model.js';

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
  const site = tx.get<SiteRecord>('sites', siteId);
  if (!site || site.organization !== org.id) throw notFound(`site ${siteId} not found`);
  requireOrgRole(member, need, action);
  return { org, member, site };
}

/**
 * How many of the organization's sites a member can reach (0.202.0's member `sites`): every
 * one with a role (read and up), none for a guest, as the rights above decide.
 */
export function sitesReachable(tx: ReadTx, organizationId: string, role: MemberRole): number {
  return atLeast(role, SITE_READ) ? tx.find<SiteRecord>('sites', 'organization', organizationId).length : 0;
}
