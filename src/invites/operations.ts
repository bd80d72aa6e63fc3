import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { membershipOf, requireOrgRole } from '../organizations/service.js';
import { presentInviteLink } from './present.js';
import { createLink, deleteLink, inviteByEmail, joinByDomain, joinWithLink, linkForHolder, linksOf, updateLink } from './service.js';

export const inviteUsersToOrganization = defineOperation('inviteUsersToOrganization', async ({ ctx, caller, path, body }) => {
  const result = await ctx.store.write((tx) => {
    const { org, member } = membershipOf(tx, path.organizationId, caller);
    return inviteByEmail(tx, ctx, member, org, body);
  });
  return { status: 200, body: result };
});

export const listOrganizationInviteLinks = defineOperation('listOrganizationInviteLinks', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const { member } = membershipOf(tx, path.organizationId, caller);
    requireOrgRole(member, 'admin', 'listing invite links');
    return { status: 200, body: paginate(linksOf(tx, member.organization), query, (l) => presentInviteLink(member, l)) };
  }),
);

// 0.146.0 gives this create neither a Location header nor error codes.
export const createOrganizationInvite = defineOperation('createOrganizationInvite', async ({ ctx, caller, path, body }) => {
  const { link, member } = await ctx.store.write((tx) => {
    const { org, member } = membershipOf(tx, path.organizationId, caller);
    return { link: createLink(tx, ctx, member, org, body), member };
  });
  return { status: 201, body: presentInviteLink(member, link) };
});

// Whoever holds a link's id may read it (to see whether it is `redundant` for them) and join with it.
export const getOrganizationInviteLink = defineOperation('getOrganizationInviteLink', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const { link, member } = linkForHolder(tx, path.organizationId, caller.userId, path.inviteId);
    return { status: 200, body: presentInviteLink(member, link) };
  }),
);

export const updateOrganizationInviteById = defineOperation('updateOrganizationInviteById', async ({ ctx, caller, path, body }) => {
  const { link, member } = await ctx.store.write((tx) => {
    const { member } = membershipOf(tx, path.organizationId, caller);
    return { link: updateLink(tx, member, path.inviteId, body), member };
  });
  return { status: 200, body: presentInviteLink(member, link) };
});

export const deleteOrganizationInviteById = defineOperation('deleteOrganizationInviteById', async ({ ctx, caller, path }) => {
  const deleted = await ctx.store.write((tx) => deleteLink(tx, membershipOf(tx, path.organizationId, caller).member, path.inviteId));
  return { status: deleted ? 205 : 204 };
});

export const joinOrganizationWithInvite = defineOperation('joinOrganizationWithInvite', async ({ ctx, caller, path }) => {
  await ctx.store.write((tx) => joinWithLink(tx, ctx, path.organizationId, caller.userId, path.inviteId));
  return { status: 200, body: {} };
});

export const joinOrganization = defineOperation('joinOrganization', async ({ ctx, caller, path }) => {
  await ctx.store.write((tx) => joinByDomain(tx, ctx, path.organizationId, caller.userId));
  return { status: 204 };
});
