import type { Context } from '../kernel/context.js';
import { conflict, forbidden, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { atLeast } from '../kernel/roles.js';
import type { MemberRecord } from '../organizations/model.js';
import { dropGrantsOf } from '../tree/grants.js';
import { findMember, requireOrgRole } from '../organizations/service.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { teamMemberRowId, type TeamMemberRecord, type TeamRecord, type TeamRole } from './model.js';
import { SamlProviders } from '../saml/tables.js';
import { TeamMembers, Teams } from './tables.js';
import { Users } from '../users/tables.js';

/** What the caller may do with a team: the Team's `permissions`, and what the service enforces. */
export function teamRights(tx: ReadTx, caller: MemberRecord, team: TeamRecord) {
  const own = tx.get(TeamMembers, teamMemberRowId(team.id, caller.user));
  // Admins manage every team; owners manage theirs. Members of the organization see all teams
  // (listTeams); a guest sees only the teams they are in.
  const admin = atLeast(caller.role, 'admin') || own?.role === 'owner';
  return { admin, view: admin || atLeast(caller.role, 'read') || !!own };
}

export function requireTeam(tx: ReadTx, organization: string, teamId: string): TeamRecord {
  const team = tx.get(Teams, teamId);
  if (!team || team.organization !== organization) throw notFound(`team ${teamId} not found`);
  return team;
}

export function requireTeamView(tx: ReadTx, caller: MemberRecord, team: TeamRecord): void {
  if (!teamRights(tx, caller, team).view)
    throw forbidden(`viewing team ${team.id} needs the read role in this organization or membership of the team (you have guest)`);
}

export function requireTeamAdmin(tx: ReadTx, caller: MemberRecord, team: TeamRecord, action: string): void {
  if (!teamRights(tx, caller, team).admin) {
    throw forbidden(`${action} needs the admin role in this organization or ownership of team ${team.id} (you have ${caller.role ?? 'guest'}, not an owner)`);
  }
}

export const teamMembersOf = (tx: ReadTx, team: string) => tx.find(TeamMembers, 'team', team);

/** Teams listed for the caller: title contains `title` (case-insensitive); `owner`: teams that member can manage. */
export function listTeams(tx: ReadTx, caller: MemberRecord, q: { owner?: string; title?: string }): TeamRecord[] {
  requireOrgRole(caller, 'read', 'listing teams');
  let teams = tx.find(Teams, 'organization', caller.organization);
  if (q.title !== undefined) {
    const needle = q.title.toLowerCase();
    teams = teams.filter((t) => t.title.toLowerCase().includes(needle));
  }
  if (q.owner !== undefined) {
    const owner = findMember(tx, caller.organization, q.owner);
    teams = owner ? teams.filter((t) => teamRights(tx, owner, t).admin) : [];
  }
  return teams.sort((a, b) => a.title.localeCompare(b.title, 'en', { sensitivity: 'base' }) || a.id.localeCompare(b.id));
}

function checkTitle(tx: ReadTx, organization: string, raw: string, except?: string): string {
  const title = raw.trim();
  if (!title) throw invalid('title: must not be blank');
  const taken = tx.find(Teams, 'organization', organization).find((t) => t.id !== except && t.title.toLowerCase() === title.toLowerCase());
  if (taken) throw conflict(`title: a team named "${taken.title}" already exists in this organization (${taken.id})`);
  return title;
}

/** A member to add, given as a user id or an email address; 400 naming `field` when it is not a member. */
function resolveMember(tx: ReadTx, organization: string, ref: string, field: string): MemberRecord {
  const byId = findMember(tx, organization, ref);
  if (byId) return byId;
  if (ref.includes('@')) {
    for (const u of tx.find(Users, 'email', ref.toLowerCase())) {
      const m = findMember(tx, organization, u.id);
      if (m) return m;
    }
  }
  throw invalid(`${field}: ${ref} is not a member of this organization`);
}

function putTeamMember(tx: WriteTx, ctx: Context, team: TeamRecord, user: string, role: TeamRole) {
  const old = tx.get(TeamMembers, teamMemberRowId(team.id, user));
  if (old?.role === role) return;
  tx.put(TeamMembers, {
    id: teamMemberRowId(team.id, user),
    organization: team.organization,
    team: team.id,
    user,
    role,
    addedAt: old?.addedAt ?? ctx.clock.now().toISOString(),
  });
}

/**
 * Creates a team (members with the `create` role and up: the organization's `ownTeam`). A creator
 * who is not an admin becomes its owner, so they can manage what they created; admins manage every
 * team without being in it.
 */
export function createTeam(tx: WriteTx, ctx: Context, caller: MemberRecord, input: { title: string; members?: string[] }): TeamRecord {
  requireOrgRole(caller, 'create', 'creating a team');
  const title = checkTitle(tx, caller.organization, input.title);
  const initial = (input.members ?? []).map((ref, i) => resolveMember(tx, caller.organization, ref, `members[${i}]`));
  const team = tx.put(Teams, { id: newId(), organization: caller.organization, title, createdAt: ctx.clock.now().toISOString() });
  for (const m of initial) putTeamMember(tx, ctx, team, m.user, 'member');
  if (!atLeast(caller.role, 'admin')) putTeamMember(tx, ctx, team, caller.user, 'owner');
  return team;
}

export function renameTeam(tx: WriteTx, caller: MemberRecord, teamId: string, rawTitle: string): TeamRecord {
  const team = requireTeam(tx, caller.organization, teamId);
  requireTeamAdmin(tx, caller, team, 'renaming a team');
  const title = checkTitle(tx, caller.organization, rawTitle, team.id);
  return title === team.title ? team : tx.put(Teams, { ...team, title });
}

/** Deletes a team and its memberships; false when there was no such team. */
export function deleteTeam(tx: WriteTx, caller: MemberRecord, teamId: string): boolean {
  const team = tx.get(Teams, teamId);
  if (!team || team.organization !== caller.organization) return false;
  requireTeamAdmin(tx, caller, team, 'deleting a team');
  // SSO sign-ups are put in a provider's default team: it must not vanish under the provider.
  const provider = tx.find(SamlProviders, 'organization', caller.organization).find((p) => p.defaultTeam === team.id);
  if (provider)
    throw conflict(`team ${team.id} is the default team of SAML provider ${provider.id} (${provider.label}); change the provider's defaultTeam first`);
  for (const tm of teamMembersOf(tx, team.id)) tx.delete(TeamMembers, tm.id);
  dropGrantsOf(tx, team.organization, 'team', team.id);
  tx.delete(Teams, team.id);
  return true;
}

/** The batch membership change: removals, then additions, then role changes, all or nothing. */
export function updateTeamMembers(
  tx: WriteTx,
  ctx: Context,
  caller: MemberRecord,
  teamId: string,
  body: { add?: string[]; remove?: string[]; memberships?: Record<string, { role: TeamRole }> },
): void {
  const team = requireTeam(tx, caller.organization, teamId);
  requireTeamAdmin(tx, caller, team, 'changing the members of a team');
  const add = body.add ?? [];
  const remove = body.remove ?? [];
  const memberships = Object.entries(body.memberships ?? {});
  if (!add.length && !remove.length && !memberships.length) throw invalid('body: nothing to change (give add, remove or memberships)');
  const added = add.map((ref, i) => resolveMember(tx, caller.organization, ref, `add[${i}]`).user);
  const removed = new Set<string>();
  for (const ref of remove) {
    // Removing someone who is not in the team (or no longer in the organization) changes nothing.
    const byEmail = ref.includes('@') ? tx.find(Users, 'email', ref.toLowerCase()).map((u) => u.id) : [];
    for (const user of [ref, ...byEmail]) if (tx.get(TeamMembers, teamMemberRowId(team.id, user))) removed.add(user);
  }
  for (const [i, user] of added.entries()) {
    if (removed.has(user)) throw invalid(`add[${i}]: ${add[i]} is also in remove`);
  }
  for (const user of removed) tx.delete(TeamMembers, teamMemberRowId(team.id, user));
  for (const user of added) if (!tx.get(TeamMembers, teamMemberRowId(team.id, user))) putTeamMember(tx, ctx, team, user, 'member');
  for (const [user, { role }] of memberships) {
    if (!tx.get(TeamMembers, teamMemberRowId(team.id, user))) throw invalid(`memberships.${user}: not a member of team ${team.id} (add them first)`);
    putTeamMember(tx, ctx, team, user, role);
  }
}

/** Adds one member (or changes their team role when `role` is given). */
export function addTeamMember(tx: WriteTx, ctx: Context, caller: MemberRecord, teamId: string, userId: string, role?: TeamRole): void {
  const team = requireTeam(tx, caller.organization, teamId);
  requireTeamAdmin(tx, caller, team, 'adding a team member');
  const m = findMember(tx, caller.organization, userId);
  if (!m) throw notFound(`member ${userId} not found in this organization`);
  const old = tx.get(TeamMembers, teamMemberRowId(team.id, userId));
  putTeamMember(tx, ctx, team, userId, role ?? old?.role ?? 'member');
}

/** Removes one member from a team; false when they were not in it. */
export function removeTeamMember(tx: WriteTx, caller: MemberRecord, teamId: string, userId: string): boolean {
  const team = requireTeam(tx, caller.organization, teamId);
  requireTeamAdmin(tx, caller, team, 'removing a team member');
  return tx.delete(TeamMembers, teamMemberRowId(team.id, userId));
}

/** Team memberships of one user in the organization (for counts and a member's teams). */
export function teamsOfUser(tx: ReadTx, organization: string, user: string): TeamMemberRecord[] {
  return tx.find(TeamMembers, 'user', user).filter((tm) => tm.organization === organization);
}

/** Drops every team membership of a user leaving the organization. */
export function leaveTeams(tx: WriteTx, organization: string, user: string): void {
  for (const tm of teamsOfUser(tx, organization, user)) tx.delete(TeamMembers, tm.id);
}

/** A team's members by display name (then id), as people look for them. */
export function sortedTeamMembers(tx: ReadTx, team: TeamRecord): TeamMemberRecord[] {
  const name = (tm: TeamMemberRecord) => tx.get(Users, tm.user)?.displayName ?? '';
  return teamMembersOf(tx, team.id).sort((a, b) => name(a).localeCompare(name(b), 'en', { sensitivity: 'base' }) || a.user.localeCompare(b.user));
}

/** Whether the user owns at least one team of the organization (the organization's `ownTeam`). */
export function ownsATeam(tx: ReadTx, organization: string, user: string): boolean {
  return teamsOfUser(tx, organization, user).some((tm) => tm.role === 'owner');
}
