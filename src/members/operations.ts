import { ensureVisitorKey } from '../auth/visitor-keys.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { spacesOfMember } from '../tree/space-access.js';
import { membershipOf } from '../organizations/service.js';
import { spaceCounts } from '../spaces/counts.js';
import { presentSpace } from '../spaces/present.js';
import { presentTeam } from '../teams/present.js';
import { presentMember } from './present.js';
import { changeRole, listMembers, removeMember, setSsoMember, teamsOfMember, touchLastSeen, viewMember } from './service.js';
import { signVisitorClaims } from './visitor-claims.js';
import { Users } from '../users/tables.js';
import { prefetchSpaces, spaceRow } from '../tree/order.js';

export const listMembersInOrganizationById = defineOperation('listMembersInOrganizationById', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const { member } = membershipOf(tx, path.organizationId, caller);
    const rows = listMembers(tx, member, query);
    return { status: 200, body: paginate(rows, query, (m) => presentMember(ctx, tx, m)) };
  }),
);

export const getMemberInOrganizationById = defineOperation('getMemberInOrganizationById', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const { member } = membershipOf(tx, path.organizationId, caller);
    return { status: 200, body: presentMember(ctx, tx, viewMember(tx, member, path.userId)) };
  }),
);

export const updateMemberInOrganizationById = defineOperation('updateMemberInOrganizationById', async ({ ctx, caller, path, body }) => {
  const updated = await ctx.store.write((tx) => changeRole(tx, membershipOf(tx, path.organizationId, caller).member, path.userId, body.role));
  return { status: 200, body: await ctx.store.read((tx) => presentMember(ctx, tx, updated)) };
});

export const removeMemberFromOrganizationById = defineOperation('removeMemberFromOrganizationById', async ({ ctx, caller, path }) => {
  const removed = await ctx.store.write((tx) => removeMember(tx, membershipOf(tx, path.organizationId, caller).member, path.userId));
  return { status: removed ? 205 : 204 };
});

export const updateOrganizationMemberLastSeenAt = defineOperation('updateOrganizationMemberLastSeenAt', async ({ ctx, caller, path }) => {
  const { member, key } = await ctx.store.write((tx) => ({
    member: touchLastSeen(tx, ctx, membershipOf(tx, path.organizationId, caller).member),
    key: ensureVisitorKey(tx, ctx),
  }));
  const user = await ctx.store.read((tx) => tx.get(Users, caller.userId)!);
  // 0.146.0 names the field gitbookVisitorClaims (API.md: serviceVisitorClaims).
  return { status: 200, body: { gitbookVisitorClaims: await signVisitorClaims(ctx, key, user, member) } };
});

export const setUserAsSSOMemberForOrganization = defineOperation('setUserAsSSOMemberForOrganization', async ({ ctx, caller, path }) => {
  const m = await ctx.store.write((tx) => {
    const { org, member } = membershipOf(tx, path.organizationId, caller);
    return setSsoMember(tx, member, org, path.userId);
  });
  return { status: 200, body: await ctx.store.read((tx) => presentMember(ctx, tx, m)) };
});

export const listTeamsForOrganizationMember = defineOperation('listTeamsForOrganizationMember', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const { member } = membershipOf(tx, path.organizationId, caller);
    const rows = teamsOfMember(tx, member, path.userId, query.title);
    return { status: 200, body: paginate(rows, query, (x) => ({ team: presentTeam(tx, member, x.team), member: { role: x.membership.role } })) };
  }),
);

/**
 * A member's spaces with the level they have on each. Only spaces the caller can see too are
 * listed (a reader must not learn of spaces hidden from them through someone else's list).
 */
export const listSpacesForOrganizationMember = defineOperation('listSpacesForOrganizationMember', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const { member } = membershipOf(tx, path.organizationId, caller);
    const target = viewMember(tx, member, path.userId);
    const mine = new Map(spacesOfMember(tx, member.organization, caller.userId).map((x) => [x.row.id, x.level]));
    const rows = spacesOfMember(tx, target.organization, target.user)
      .filter((x) => mine.has(x.row.id))
      .sort((a, b) => a.row.createdAt.localeCompare(b.row.createdAt) || a.row.id.localeCompare(b.row.id));
    if (query.order !== 'asc') rows.reverse();
    return {
      status: 200,
      body: paginate(
        rows,
        query,
        (x) => ({ permission: x.level, space: presentSpace(ctx, spaceRow(tx, x.row), mine.get(x.row.id)!, spaceCounts(tx, x.row.id)) }),
        (page) => prefetchSpaces(tx, page),
      ),
    };
  }),
);
