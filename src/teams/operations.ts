import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { atLeast } from '../kernel/roles.js';
import { presentMember } from '../members/present.js';
import type { MemberRecord } from '../organizations/model.js';
import { findMember, membershipOf } from '../organizations/service.js';
import { presentTeam } from './present.js';
import {
  addTeamMember,
  createTeam,
  deleteTeam,
  listTeams,
  removeTeamMember,
  renameTeam,
  requireTeam,
  requireTeamView,
  sortedTeamMembers,
  updateTeamMembers,
} from './service.js';

export const listTeamsInOrganizationById = defineOperation('listTeamsInOrganizationById', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const { member } = membershipOf(tx, path.organizationId, caller);
    return { status: 200, body: paginate(listTeams(tx, member, query), query, (t) => presentTeam(tx, member, t)) };
  }),
);

// The contract creates teams with PUT on the collection and answers 201 without a Location.
export const createOrganizationTeam = defineOperation('createOrganizationTeam', async ({ ctx, caller, path, body }) => {
  const team = await ctx.store.write((tx) => createTeam(tx, ctx, membershipOf(tx, path.organizationId, caller).member, body));
  return { status: 201, body: await ctx.store.read((tx) => presentTeam(tx, membershipOf(tx, path.organizationId, caller).member, team)) };
});

export const getTeamInOrganizationById = defineOperation('getTeamInOrganizationById', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const { member } = membershipOf(tx, path.organizationId, caller);
    const team = requireTeam(tx, member.organization, path.teamId);
    requireTeamView(tx, member, team);
    return { status: 200, body: presentTeam(tx, member, team) };
  }),
);

export const updateTeamInOrganizationById = defineOperation('updateTeamInOrganizationById', async ({ ctx, caller, path, body }) => {
  const team = await ctx.store.write((tx) => renameTeam(tx, membershipOf(tx, path.organizationId, caller).member, path.teamId, body.title));
  return { status: 200, body: await ctx.store.read((tx) => presentTeam(tx, membershipOf(tx, path.organizationId, caller).member, team)) };
});

export const removeTeamFromOrganizationById = defineOperation('removeTeamFromOrganizationById', async ({ ctx, caller, path }) => {
  const deleted = await ctx.store.write((tx) => deleteTeam(tx, membershipOf(tx, path.organizationId, caller).member, path.teamId));
  return { status: deleted ? 205 : 204 };
});

/** Whether the caller may see a given member of the team: members see members; anyone sees themself. */
const canViewMember = (caller: MemberRecord, user: string) => user === caller.user || atLeast(caller.role, 'read');

export const listTeamMembersInOrganizationById = defineOperation('listTeamMembersInOrganizationById', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const { member } = membershipOf(tx, path.organizationId, caller);
    const team = requireTeam(tx, member.organization, path.teamId);
    requireTeamView(tx, member, team);
    const rows = sortedTeamMembers(tx, team);
    return {
      status: 200,
      body: paginate(rows, query, (tm) => ({
        organization: presentMember(ctx, tx, findMember(tx, team.organization, tm.user)!),
        team: { role: tm.role },
        permissions: { view: canViewMember(member, tm.user) },
      })),
    };
  }),
);

export const updateMembersInOrganizationTeam = defineOperation('updateMembersInOrganizationTeam', async ({ ctx, caller, path, body }) => {
  await ctx.store.write((tx) => updateTeamMembers(tx, ctx, membershipOf(tx, path.organizationId, caller).member, path.teamId, body));
  return { status: 204 };
});

export const addMemberToOrganizationTeamById = defineOperation('addMemberToOrganizationTeamById', async ({ ctx, caller, path, body }) => {
  await ctx.store.write((tx) => addTeamMember(tx, ctx, membershipOf(tx, path.organizationId, caller).member, path.teamId, path.userId, body?.role));
  return { status: 204 };
});

export const deleteMemberFromOrganizationTeamById = defineOperation('deleteMemberFromOrganizationTeamById', async ({ ctx, caller, path }) => {
  const removed = await ctx.store.write((tx) => removeTeamMember(tx, membershipOf(tx, path.organizationId, caller).member, path.teamId, path.userId));
  return { status: removed ? 205 : 204 };
});
