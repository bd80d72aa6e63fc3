import { apiUrl } from '../kernel/context.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { membershipOf } from '../organizations/service.js';
import { isActiveProvider } from './model.js';
import { presentSamlProvider, serviceUrls } from './present.js';
import { createProvider, deleteProvider, providersOf, requireProvider, requireSamlAdmin, updateProvider } from './service.js';

export const listSAMLProvidersInOrganizationById = defineOperation('listSAMLProvidersInOrganizationById', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const { member } = membershipOf(tx, path.organizationId, caller);
    requireSamlAdmin(member, 'listing SAML providers');
    return { status: 200, body: paginate(providersOf(tx, member.organization), query, (p) => presentSamlProvider(ctx, tx, member, p)) };
  }),
);

export const createOrganizationSAMLProvider = defineOperation('createOrganizationSAMLProvider', async ({ ctx, caller, path, body }) => {
  const { p, member } = await ctx.store.write((tx) => {
    const { org, member } = membershipOf(tx, path.organizationId, caller);
    return { p: createProvider(tx, ctx, member, org, body), member };
  });
  return {
    status: 201,
    headers: { Location: apiUrl(ctx, `/orgs/${p.organization}/saml/${p.id}`) },
    body: await ctx.store.read((tx) => presentSamlProvider(ctx, tx, member, p)),
  };
});

export const getOrganizationSAMLProviderById = defineOperation('getOrganizationSAMLProviderById', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const { member } = membershipOf(tx, path.organizationId, caller);
    requireSamlAdmin(member, 'viewing a SAML provider');
    return { status: 200, body: presentSamlProvider(ctx, tx, member, requireProvider(tx, member.organization, path.samlProviderId)) };
  }),
);

export const updateOrganizationSAMLProvider = defineOperation('updateOrganizationSAMLProvider', async ({ ctx, caller, path, body }) => {
  const { p, member } = await ctx.store.write((tx) => {
    const { org, member } = membershipOf(tx, path.organizationId, caller);
    return { p: updateProvider(tx, member, org, path.samlProviderId, body), member };
  });
  return { status: 200, body: await ctx.store.read((tx) => presentSamlProvider(ctx, tx, member, p)) };
});

export const deleteOrganizationSAMLProvider = defineOperation('deleteOrganizationSAMLProvider', async ({ ctx, caller, path }) => {
  const deleted = await ctx.store.write((tx) => {
    const { org, member } = membershipOf(tx, path.organizationId, caller);
    return deleteProvider(tx, member, org, path.samlProviderId);
  });
  return { status: deleted ? 205 : 204 };
});

// The sign-in choices of an organization: every member may see them; pending providers cannot
// sign anyone in, so only active ones are listed. The contract's list has no count or next.
export const listSSOProviderLoginsInOrganization = defineOperation('listSSOProviderLoginsInOrganization', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const { member } = membershipOf(tx, path.organizationId, caller);
    const items = providersOf(tx, member.organization)
      .filter(isActiveProvider)
      .map((p) => ({ id: p.id, label: p.label, startURL: serviceUrls(ctx, p).startURL }));
    return { status: 200, body: { items } };
  }),
);
