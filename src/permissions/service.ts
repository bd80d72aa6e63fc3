import { visibleCollection } from '../collections/service.js';
import type { Caller, Context } from '../kernel/context.js';
import { forbidden, invalid, notFound } from '../kernel/errors.js';
import { atLeast, ROLES, type MemberRole, type Role } from '../kernel/roles.js';
import type { MemberRecord, OrganizationRecord } from '../organizations/model.js';
import { findMember, membersOf, membershipOf } from '../organizations/service.js';
import { siteLevel } from '../sites/access.js';
import { visibleSpace } from '../spaces/service.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { ContentAccess } from '../tree/access.js';
import { grantRowId, grantsOn, type GrantHolder, type GrantRecord, type GrantTarget } from '../tree/grants.js';
import type { UserRecord } from '../users/model.js';
import { Grants } from '../tree/grants.js';
import { Sites } from '../sites/tables.js';
import { TeamMembers, Teams } from '../teams/tables.js';
import { Users } from '../users/tables.js';

/**
 * Permissions on one space, collection or site (docs/manual/permissions.md): who holds a role there
 * through a grant (src/tree/grants.ts), and giving, changing and removing those grants.
 *
 * - Seeing the item is the first door: a caller who cannot see it gets the same 404 as for an
 *   item that does not exist.
 * - Listing the grants needs the read role in the organization and the read level on the item,
 *   or the admin level on the item (a guest who administers one space sees who else is there).
 * - Giving, changing or removing a grant needs the admin level on the item, and a role is never
 *   given above the giver's own level there (403 naming both levels).
 * - Users must be active members of the item's organization (guests included) and teams teams of
 *   it: anything else is a 400 naming the id (in a body) or a 404 (in the path); nothing is written.
 */
export interface PermissionTarget {
  kind: GrantTarget;
  id: string;
  org: OrganizationRecord;
  caller: MemberRecord;
  /** The caller's level on the item. */
  level: MemberRole;
  /** A member's level on the item (for the aggregates). */
  levelOf: (m: MemberRecord) => MemberRole;
}

const what = (t: Pick<PermissionTarget, 'kind' | 'id'>) => `${t.kind} ${t.id}`;

export function spaceTarget(tx: ReadTx, caller: Caller, spaceId: string): PermissionTarget {
  const { row, level, access } = visibleSpace(tx, caller, spaceId);
  return { kind: 'space', id: row.id, org: access.org, caller: access.member, level, levelOf: (m) => new ContentAccess(tx, access.org, m).space(row) };
}

export function collectionTarget(tx: ReadTx, caller: Caller, collectionId: string): PermissionTarget {
  const { row, level, access } = visibleCollection(tx, caller, collectionId);
  return {
    kind: 'collection',
    id: row.id,
    org: access.org,
    caller: access.member,
    level,
    levelOf: (m) => new ContentAccess(tx, access.org, m).collection(row),
  };
}

export function siteTarget(tx: ReadTx, caller: Caller, organizationId: string, siteId: string): PermissionTarget {
  const { org, member } = membershipOf(tx, organizationId, caller);
  const site = tx.get(Sites, siteId);
  const level = site && site.organization === org.id ? siteLevel(tx, member, site) : null;
  // A guest with no role on the site does not learn that it exists.
  if (!site || !level) throw notFound(`site ${siteId} not found`);
  return { kind: 'site', id: site.id, org, caller: member, level, levelOf: (m) => siteLevel(tx, m, site) };
}

/** 403 unless the caller may list the grants on the item. */
export function requireList(t: PermissionTarget): void {
  if (atLeast(t.level, 'admin') || (atLeast(t.caller.role, 'read') && atLeast(t.level, 'read'))) return;
  throw forbidden(
    `listing the permissions of ${what(t)} needs the read role in this organization, or the admin level on ${what(t)} (you have ${t.caller.role ?? 'guest'}, ${t.level ?? 'none'} on it)`,
  );
}

/** 403 unless the caller may give `role` (null: remove) on the item: admin there, and never above their own level. */
export function requireGive(t: PermissionTarget, role: Role | null): void {
  if (role !== null && !atLeast(t.level, role)) {
    throw forbidden(`giving the ${role} role on ${what(t)} is above your own level there (you have ${t.level ?? 'none'})`);
  }
  if (!atLeast(t.level, 'admin')) {
    throw forbidden(`changing the permissions of ${what(t)} needs the admin level on it (you have ${t.level ?? 'none'})`);
  }
}

/** A role from a body: one of the roles, or null / absent (no role: the grant is removed). */
export function roleOf(value: unknown): Role | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !(ROLES as readonly string[]).includes(value)) throw invalid(`role: must be one of ${ROLES.join(', ')}, or null`);
  return value as Role;
}

/** The user ids of a body, each an active member of the organization (400 naming the first that is not). */
function checkUsers(tx: ReadTx, org: OrganizationRecord, ids: string[]): string[] {
  for (const id of ids) {
    const m = findMember(tx, org.id, id);
    if (!m || m.disabled) throw invalid(`users: user ${id} is not a member of organization ${org.id}`);
  }
  return [...new Set(ids)];
}

function checkTeams(tx: ReadTx, org: OrganizationRecord, ids: string[]): string[] {
  for (const id of ids) {
    const t = tx.get(Teams, id);
    if (!t || t.organization !== org.id) throw invalid(`teams: team ${id} is not a team of organization ${org.id}`);
  }
  return [...new Set(ids)];
}

function setGrant(tx: WriteTx, ctx: Context, t: PermissionTarget, holderKind: GrantHolder, holder: string, role: Role | null): void {
  const id = grantRowId(t.kind, t.id, holderKind, holder);
  if (role === null) {
    tx.delete(Grants, id);
    return;
  }
  const prior = tx.get(Grants, id);
  if (prior?.role === role) return;
  tx.put(Grants, {
    id,
    organization: t.org.id,
    targetKind: t.kind,
    target: t.id,
    holderKind,
    holder,
    role,
    grantedAt: ctx.clock.now().toISOString(),
    grantedBy: t.caller.user,
  });
}

/** inviteTo*: gives `role` (null: removes) to the users and teams of the body. Everything is checked before anything is written. */
export function invite(tx: WriteTx, ctx: Context, t: PermissionTarget, body: { role?: unknown; users?: string[]; teams?: string[] }): void {
  const role = roleOf(body.role);
  requireGive(t, role);
  const users = checkUsers(tx, t.org, body.users ?? []);
  const teams = checkTeams(tx, t.org, body.teams ?? []);
  if (!users.length && !teams.length) throw invalid('users or teams: name at least one user or team');
  for (const u of users) setGrant(tx, ctx, t, 'user', u, role);
  for (const team of teams) setGrant(tx, ctx, t, 'team', team, role);
}

/** update*PermissionIn*: one user's or team's grant (role null or absent: removed). */
export function updateOne(tx: WriteTx, ctx: Context, t: PermissionTarget, holderKind: GrantHolder, holder: string, body: { role?: unknown } | undefined): void {
  const role = roleOf(body?.role);
  requireGive(t, role);
  if (holderKind === 'user') {
    const m = findMember(tx, t.org.id, holder);
    if (!m || m.disabled) throw notFound(`user ${holder} is not a member of organization ${t.org.id}`);
  } else {
    const team = tx.get(Teams, holder);
    if (!team || team.organization !== t.org.id) throw notFound(`team ${holder} is not a team of organization ${t.org.id}`);
  }
  setGrant(tx, ctx, t, holderKind, holder, role);
}

/**
 * remove*From*: takes one user's or team's grant away (the same rights as changing it). Whether
 * there was one: the contract's 205 (removed) or 204 (none there).
 */
export function removeOne(tx: WriteTx, ctx: Context, t: PermissionTarget, holderKind: GrantHolder, holder: string): boolean {
  requireGive(t, null);
  const had = grantsOn(tx, t.org.id, t.kind, t.id).some((g) => g.holderKind === holderKind && g.holder === holder);
  if (had) setGrant(tx, ctx, t, holderKind, holder, null);
  return had;
}

const userName = (tx: ReadTx, id: string) => tx.get(Users, id)?.displayName.toLowerCase() ?? '';

/** The grants on the item held by users (still members) or by teams (still there), by name. */
export function grantsOfKind(tx: ReadTx, t: PermissionTarget, holderKind: GrantHolder): GrantRecord[] {
  const rows = grantsOn(tx, t.org.id, t.kind, t.id).filter((g) => g.holderKind === holderKind);
  if (holderKind === 'user') {
    return rows
      .filter((g) => {
        const m = findMember(tx, t.org.id, g.holder);
        return !!m && !m.disabled && !!tx.get(Users, g.holder);
      })
      .sort((a, b) => userName(tx, a.holder).localeCompare(userName(tx, b.holder)) || a.holder.localeCompare(b.holder));
  }
  const title = (g: GrantRecord) => tx.get(Teams, g.holder)?.title.toLowerCase();
  return rows.filter((g) => title(g) !== undefined).sort((a, b) => title(a)!.localeCompare(title(b)!) || a.holder.localeCompare(b.holder));
}

export interface Effective {
  member: MemberRecord;
  user: UserRecord;
  level: Role;
  /** Where a site level comes from: the organization role, the member's own grant, or a team's. */
  origin: { type: 'organization' } | { type: 'site'; reason: 'member' } | { type: 'site'; reason: 'team'; team: string };
}

/**
 * listPermissionsAggregateIn*: every active member with a level on the item, whatever gives it
 * (organization role, `defaultLevel`, grants to them, to their teams, on collections above),
 * by name. `role`: only those with that level; `guest`: only the organization's guests there.
 */
export function aggregate(tx: ReadTx, t: PermissionTarget, q: { role?: string; team?: string; search?: string }): Effective[] {
  const needle = q.search?.trim().toLowerCase();
  const teamMembers =
    q.team === undefined
      ? undefined
      : new Set(
          tx
            .find(TeamMembers, 'team', q.team)
            .filter((tm) => tm.organization === t.org.id)
            .map((tm) => tm.user),
        );
  const out: Effective[] = [];
  for (const m of membersOf(tx, t.org.id)) {
    const user = tx.get(Users, m.user);
    if (!user) continue;
    const level = t.levelOf(m);
    if (!level) continue;
    if (q.role === 'guest' ? m.role !== null : q.role !== undefined && level !== q.role) continue;
    if (teamMembers && !teamMembers.has(m.user)) continue;
    if (needle && !(user.displayName.toLowerCase().includes(needle) || user.email.toLowerCase().includes(needle))) continue;
    out.push({ member: m, user, level, origin: t.kind === 'site' ? siteOrigin(tx, t, m, level) : { type: 'organization' } });
  }
  return out.sort((a, b) => a.user.displayName.toLowerCase().localeCompare(b.user.displayName.toLowerCase()) || a.user.id.localeCompare(b.user.id));
}

function siteOrigin(tx: ReadTx, t: PermissionTarget, m: MemberRecord, level: Role): Effective['origin'] {
  if (m.role === level || m.role === 'admin') return { type: 'organization' };
  const own = tx.get(Grants, grantRowId('site', t.id, 'user', m.user));
  if (own?.role === level) return { type: 'site', reason: 'member' };
  const teams = new Set(
    tx
      .find(TeamMembers, 'user', m.user)
      .filter((tm) => tm.organization === t.org.id)
      .map((tm) => tm.team),
  );
  const byTeam = grantsOn(tx, t.org.id, 'site', t.id).find((g) => g.holderKind === 'team' && teams.has(g.holder) && g.role === level);
  return byTeam ? { type: 'site', reason: 'team', team: byTeam.holder } : { type: 'organization' };
}
