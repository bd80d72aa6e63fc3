import { apiUrl } from '../kernel/context.js';
import { invalid } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { insertSite } from '../sites/service.js';
import { ownsATeam } from '../teams/service.js';
import type { OrganizationRecord } from './model.js';
import { presentOrganization } from './present.js';
import { insertOrganization, membershipOf, organizationsOf } from './service.js';
import { emailDomains, updateOrganization } from './settings.js';

export const listOrganizationsForAuthenticatedUser = defineOperation('listOrganizationsForAuthenticatedUser', ({ ctx, caller, query }) =>
  ctx.store.read((tx) => {
    const mine = organizationsOf(tx, caller);
    return { status: 200, body: paginate(mine, query, (x) => presentOrganization(ctx, x.org, x.member.role, ownsATeam(tx, x.org.id, caller.userId))) };
  }),
);

export const getOrganizationById = defineOperation('getOrganizationById', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const { org, member } = membershipOf(tx, path.organizationId, caller);
    return { status: 200, body: presentOrganization(ctx, org, member.role, ownsATeam(tx, org.id, caller.userId)) };
  }),
);

export const createOrganization = defineOperation('createOrganization', async ({ ctx, caller, query, body }) => {
  // Importing an OpenAPI spec into the default site would need a site to show specs, which sites
  // here do not: refuse rather than create an organization without what the caller asked for.
  if (query.openapiUrl !== undefined) throw invalid('openapiUrl: attaching an OpenAPI spec to the default site is not supported by this server (create the organization, then publish the spec: docs openapi put SLUG --url URL --org ORG_ID, or PUT /v1/orgs/{organizationId}/openapi/{specSlug}, createOrUpdateOpenAPISpecBySlug)');
  const title = String(body.title).trim();
  if (title.length < 2) throw invalid('title: must be 2 to 255 characters');
  const { org, member } = await ctx.store.write((tx) => {
    const created = insertOrganization(tx, ctx, { title, emailDomains: emailDomains(body.emailDomains ?? []) }, caller.userId);
    // withDefaultSite: an unpublished site titled after the organization, which becomes its default content.
    if (query.withDefaultSite) {
      const site = insertSite(tx, ctx, caller, created.org, { title: title.slice(0, 128) });
      created.org = tx.put<OrganizationRecord>('organizations', { ...created.org, defaultContent: { type: 'site', site: site.id } });
    }
    return created;
  });
  return {
    status: 201,
    headers: { Location: apiUrl(ctx, `/orgs/${org.id}`) },
    body: presentOrganization(ctx, org, member.role),
  };
});

export const updateOrganizationById = defineOperation('updateOrganizationById', async ({ ctx, caller, path, body }) => {
  const org = await ctx.store.write((tx) => {
    const { org, member } = membershipOf(tx, path.organizationId, caller);
    return updateOrganization(tx, org, member, body);
  });
  return getOrganizationById.handler({ ctx, caller, path: { organizationId: org.id }, query: {}, body: undefined });
});
