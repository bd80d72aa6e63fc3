import { apiUrl } from '../kernel/context.js';
import { forbidden, invalid, notFound } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { insertSite } from '../sites/service.js';
import { ownsATeam } from '../teams/service.js';
import { isEmailVerified, isInstanceOwner } from '../users/instance.js';
import { presentOrganization } from './present.js';
import { findMember, insertOrganization, membershipOf, organizationsOf, requireOrgRole } from './service.js';
import { aiUsage } from './ai-usage.js';
import { emailDomains, updateOrganization } from './settings.js';
import { Organizations } from './tables.js';
import { Users } from '../users/tables.js';

export const listOrganizationsForAuthenticatedUser = defineOperation('listOrganizationsForAuthenticatedUser', ({ ctx, caller, query }) =>
  ctx.store.read((tx) => {
    const mine = organizationsOf(tx, caller);
    return { status: 200, body: paginate(mine, query, (x) => presentOrganization(ctx, x.org, x.member.role, ownsATeam(tx, x.org.id, caller.userId))) };
  }),
);

export const getOrganizationById = defineOperation(
  'getOrganizationById',
  ({ ctx, caller, path }) =>
    ctx.store.read((tx) => {
      const { org, member } = membershipOf(tx, path.organizationId, caller);
      return { status: 200, body: presentOrganization(ctx, org, member.role, ownsATeam(tx, org.id, caller.userId)) };
    }),
  { keepsAnswer: true },
);

export const createOrganization = defineOperation('createOrganization', async ({ ctx, caller, query, body }) => {
  // Importing an OpenAPI spec into the default site would need a site to show specs, which sites
  // here do not: refuse rather than create an organization without what the caller asked for.
  if (query.openapiUrl !== undefined)
    throw invalid(
      'openapiUrl: attaching an OpenAPI spec to the default site is not supported by this server (create the organization, then publish the spec: docs openapi put SLUG --url URL --org ORG_ID, or PUT /v1/orgs/{organizationId}/openapi/{specSlug}, createOrUpdateOpenAPISpecBySlug)',
    );
  const title = String(body.title).trim();
  if (title.length < 2) throw invalid('title: must be 2 to 255 characters');
  const { org, member } = await ctx.store.write((tx) => {
    const created = insertOrganization(tx, ctx, { title, emailDomains: emailDomains(body.emailDomains ?? []) }, caller.userId);
    // withDefaultSite: an unpublished site titled after the organization, which becomes its default content.
    if (query.withDefaultSite) {
      const site = insertSite(tx, ctx, caller, created.org, { title: title.slice(0, 128) });
      created.org = tx.put(Organizations, { ...created.org, defaultContent: { type: 'site', site: site.id } });
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

/**
 * GET /v1/subdomains/{subdomain}: the organization whose published sites live under this name
 * (its `hostname`: `/sites/<hostname>/<site>` on this server, as `<subdomain>.gitbook.io` is on
 * GitBook's). Shown to that organization's members; to anyone else it does not exist (404), like
 * every other organization resource. Active: published sites answer under it.
 */
export const getSubdomain = defineOperation('getSubdomain', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const org = tx.find(Organizations, 'hostname', path.subdomain)[0];
    const member = org && findMember(tx, org.id, caller.userId);
    if (!org || !member || member.disabled) throw notFound(`subdomain ${path.subdomain} not found`);
    return {
      status: 200,
      body: { object: 'subdomain' as const, subdomain: path.subdomain, target: { type: 'organization' as const, organization: org.id }, isActive: true },
    };
  }),
);

/** An email domain: dot-separated labels of letters, digits and inner hyphens, at most 63 each. */
const EMAIL_DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * GET /v1/email-domains/{emailDomain}/orgs: the organizations a user of that email domain may
 * join (their allowed `emailDomains` list it). GitBook keeps it internal; here an instance owner
 * may ask for any domain and a user for the domain of their own verified address, the one that
 * lets them join (src/invites/service.ts `joinByDomain`): anyone else would learn which
 * organizations exist. Each organization is shown with the caller's permissions in it.
 */
export const getOrganizationsForEmailDomain = defineOperation('getOrganizationsForEmailDomain', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const domain = path.emailDomain.trim().toLowerCase();
    if (!isInstanceOwner(tx, caller.userId)) {
      const me = tx.get(Users, caller.userId);
      const mine = me?.email.split('@').pop()?.toLowerCase();
      if (!me || mine !== domain || !isEmailVerified(tx, me)) {
        throw forbidden(`listing the organizations of email domain ${domain} needs an instance owner, or a verified email address in that domain`);
      }
    }
    // Who may ask comes first (anyone else learns nothing, not even that the value was refused), then what.
    if (!EMAIL_DOMAIN.test(domain) || domain.length > 253)
      throw invalid(`emailDomain: ${JSON.stringify(path.emailDomain.slice(0, 80))} is not an email domain (e.g. acme.com)`);
    const orgs = tx
      .all(Organizations)
      .filter((o) => o.emailDomains.some((d) => d.toLowerCase() === domain))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    return {
      status: 200,
      body: {
        organizations: orgs.map((o) => {
          const member = findMember(tx, o.id, caller.userId);
          return presentOrganization(ctx, o, member && !member.disabled ? member.role : null, ownsATeam(tx, o.id, caller.userId));
        }),
      },
    };
  }),
);

// What this server's AI features did for the organization (docs/manual/organizations.md#ai-usage):
// one credit per question answered by ask and per translation run; admins only, as the contract says.
export const getOrganizationAIUsage = defineOperation('getOrganizationAIUsage', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const { org, member } = membershipOf(tx, path.organizationId, caller);
    requireOrgRole(member, 'admin', 'reading AI usage');
    return { status: 200, body: aiUsage(tx, org.id, { from: query.from, to: query.to, interval: query.interval }, ctx.clock.now()) };
  }),
);
