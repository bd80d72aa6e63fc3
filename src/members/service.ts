import type { Context } from '../kernel/context.js';
import { conflict, forbidden, invalid, notFound } from '../kernel/errors.js';
import type { MemberRole } from '../kernel/roles.js';
import type { MemberRecord, OrganizationRecord } from '../organizations/model.js';
import { dropGrantsOf } from '../tree/grants.js';
import { findMember, membersOf, requireMember, requireOrgRole } from '../organizations/service.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { leaveTeams, teamsOfUser } from '../teams/service.js';
import { Members } from '../organizations/tables.js';
import { Teams } from '../teams/tables.js';
import { Users } from '../users/tables.js';

export interface MemberQuery {
  role?: string;
  search?: string;
  sort?: 'joinedAt' | 'lastSeenAt';
  order?: 'asc' | 'desc';
}

/** Members of the caller's organization, filtered and ordered as the list operation asks. */
export function listMembers(tx: ReadTx, caller: MemberRecord, q: MemberQuery): MemberRecord[] {
  requireOrgRole(caller, 'read', 'listing members');
  const sort = q.sort ?? 'joinedAt';
  const needle = q.search?.trim().toLowerCase();
  const rows = membersOf(tx, caller.organization).filter((m) => {
    if (q.role !== undefined && (m.role ?? 'guest') !== q.role) return false;
    // `lastSeenAt` lists only members that were seen at least once.
    if (sort === 'lastSeenAt' && !m.lastSeenAt) return false;
    if (needle) {
      const u = tx.get(Users, m.user);
      if (!u || !(u.displayName.toLowerCase().includes(needle) || u.email.toLowerCase().includes(needle))) return false;
    }
    return true;
  });
  const dir = (q.order ?? 'desc') === 'asc' ? 1 : -1;
  // Ties (people added in one invite share a time) go by name, so pages are stable and readable.
  const name = (m: MemberRecord) => tx.get(Users, m.user)?.displayName.toLowerCase() ?? '';
  return rows.sort((a, b) => dir * ((a[sort] ?? '').localeCompare(b[sort] ?? '') || name(a).localeCompare(name(b)) || a.user.localeCompare(b.user)));
}

/** Members see members; anyone sees their own membership. */
export function viewMember(tx: ReadTx, caller: MemberRecord, userId: string): MemberRecord {
  if (userId !== caller.user) requireOrgRole(caller, 'read', 'viewing other members');
  return requireMember(tx, caller.organization, userId);
}

/** An organization keeps at least one admin: the last one can be neither demoted nor removed. */
function keepAnAdmin(tx: ReadTx, target: MemberRecord, action: string): void {
  if (target.role !== 'admin') return;
  const others = membersOf(tx, target.organization).filter((m) => m.role === 'admin' && m.user !== target.user);
  if (others.length === 0)
    throw conflict(`userId: ${target.user} is the last admin of this organization and cannot be ${action}; make another member admin first`);
}

export function changeRole(tx: WriteTx, caller: MemberRecord, userId: string, role: MemberRole | undefined): MemberRecord {
  requireOrgRole(caller, 'admin', "changing a member's role");
  const target = requireMember(tx, caller.organization, userId);
  if (role === undefined) throw invalid('role: is required (a role, or null for a guest)');
  if (role === target.role) return target;
  if (role !== 'admin') keepAnAdmin(tx, target, 'demoted');
  return tx.put(Members, { ...target, role });
}

/** Admins remove anyone; a member may remove themself (leave). False when not a member. */
export function removeMember(tx: WriteTx, caller: MemberRecord, userId: string): boolean {
  if (userId !== caller.user) requireOrgRole(caller, 'admin', 'removing a member');
  const target = findMember(tx, caller.organization, userId);
  if (!target) return false;
  keepAnAdmin(tx, target, 'removed');
  leaveTeams(tx, caller.organization, userId);
  // Their grants go with them: someone invited back starts with no permissions.
  dropGrantsOf(tx, caller.organization, 'user', userId);
  tx.delete(Members, target.id);
  return true;
}

/** Records that the caller was active now. */
export function touchLastSeen(tx: WriteTx, ctx: Context, caller: MemberRecord): MemberRecord {
  const fresh = requireMember(tx, caller.organization, caller.user);
  return tx.put(Members, { ...fresh, lastSeenAt: ctx.clock.now().toISOString() });
}

/** Whether a user belongs to an organization other than `organization`. */
export function inAnotherOrganization(tx: ReadTx, organization: string, user: string): boolean {
  return tx.find(Members, 'user', user).some((m) => m.organization !== organization && !m.disabled);
}

/**
 * Marks a member as an SSO member. A user who is not a member is refused: nobody is made a member
 * without their consent, so they are invited first (docs invites send --sso) and accept. An SSO
 * identity belongs to one organization, so a member of another organization is refused too.
 */
export function setSsoMember(tx: WriteTx, caller: MemberRecord, org: OrganizationRecord, userId: string): MemberRecord {
  requireOrgRole(caller, 'admin', 'setting a member as SSO member');
  if (!tx.get(Users, userId)) throw notFound(`user ${userId} not found`);
  const existing = findMember(tx, org.id, userId);
  if (!existing) {
    throw forbidden(
      `setting user ${userId} as SSO member is refused: they are not a member of this organization, and only they can make themself one (invite them: docs invites send --emails <address> --sso; they accept with docs invites accept)`,
    );
  }
  if (inAnotherOrganization(tx, org.id, userId)) {
    throw conflict(`userId: ${userId} is a member of another organization; an SSO member can belong to this organization only`);
  }
  return existing.sso ? existing : tx.put(Members, { ...existing, sso: true });
}

/** The teams of a member, `title` filtering case-insensitively; ordered by team title. */
export function teamsOfMember(tx: ReadTx, caller: MemberRecord, userId: string, title?: string) {
  if (userId !== caller.user) requireOrgRole(caller, 'read', "listing another member's teams");
  requireMember(tx, caller.organization, userId);
  const needle = title?.toLowerCase();
  return teamsOfUser(tx, caller.organization, userId)
    .map((membership) => ({ membership, team: tx.get(Teams, membership.team)! }))
    .filter((x) => x.team && (needle === undefined || x.team.title.toLowerCase().includes(needle)))
    .sort((a, b) => a.team.title.localeCompare(b.team.title, 'en', { sensitivity: 'base' }) || a.team.id.localeCompare(b.team.id));
}
