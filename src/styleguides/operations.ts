import { presentChangeRequest } from '../change-requests/present.js';
import { ChangeRequests } from '../change-requests/tables.js';
import type { Schema } from '../contract/types.js';
import { loadParser } from '../content/link-refs.js';
import { apiUrl, type Context } from '../kernel/context.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { membershipOf, requireOrgRole } from '../organizations/service.js';
import { SITE_READ, siteOf } from '../sites/access.js';
import { presentSite } from '../sites/present.js';
import { listSites } from '../sites/service.js';
import { spaceCounts } from '../spaces/counts.js';
import { presentSpace } from '../spaces/present.js';
import { listSpaces } from '../spaces/service.js';
import type { ReadTx } from '../store/port.js';
import { contentAccess } from '../tree/access.js';
import { presentUser } from '../users/present.js';
import { Users } from '../users/tables.js';
import type { StyleguideRunRecord } from './model.js';
import { ensureStyleguide, runCheck, runsOf } from './service.js';
import { STYLEGUIDE_TEMPLATES } from './templates.js';
import { prefetchSpaces, spaceRow } from '../tree/order.js';

// Style guides (0.202.0): a site's writing rules in a space of type `styleguide`, the built-in
// templates that seed one, and check runs over the site's pages. docs/manual/styleguides.md

/**
 * The contract's SiteStyleguideRun, with what this server's check found (an extension beyond the
 * contract, which leaves the findings to the change requests GitBook's agent writes): `findings`
 * (the first STYLEGUIDE_LIMITS.findings), `findingsTotal` and the change request of each space.
 */
function presentRun(ctx: Context, tx: ReadTx, r: StyleguideRunRecord): Schema<'SiteStyleguideRun'> {
  const u = tx.get(Users, r.createdBy);
  return {
    object: 'styleguide-run',
    id: r.id,
    site: r.site,
    styleguide: r.styleguide,
    spaces: r.spaces,
    createdAt: r.createdAt,
    createdBy: u
      ? presentUser(ctx, u)
      : { object: 'user', id: r.createdBy, displayName: 'Deleted user', urls: { location: apiUrl(ctx, `/users/${r.createdBy}`) } },
    ...({ findings: r.findings, findingsTotal: r.findingsTotal, changeRequests: r.changeRequests } as object),
  };
}

export const createSiteStyleguideById = defineOperation('createSiteStyleguideById', async ({ ctx, caller, path, body }) => {
  const parse = await loadParser();
  const space = await ctx.store.write((tx) => {
    const { space } = ensureStyleguide(tx, ctx, caller, path.organizationId, path.siteId, (body as { template?: string } | undefined)?.template, parse);
    return presentSpace(ctx, space, contentAccess(tx, path.organizationId, caller).space(space), spaceCounts(tx, space.id));
  });
  return { status: 200, body: space };
});

export const createSiteStyleguideRun = defineOperation('createSiteStyleguideRun', async ({ ctx, caller, path, body }) => {
  const parse = await loadParser();
  const answer = await ctx.store.write((tx) => {
    const run = runCheck(tx, ctx, caller, path.organizationId, path.siteId, body.spaces, parse);
    return {
      run: presentRun(ctx, tx, run),
      changeRequests: run.changeRequests.map((c) => presentChangeRequest(ctx, tx, tx.get(ChangeRequests, c.changeRequest)!, path.organizationId)),
    };
  });
  return { status: 201, body: answer };
});

export const listSiteStyleguideRuns = defineOperation('listSiteStyleguideRuns', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const { site } = siteOf(tx, caller, path.organizationId, path.siteId, SITE_READ, `reading the style guide runs of site ${path.siteId}`);
    return { status: 200, body: paginate(runsOf(tx, site.id), query, (r) => presentRun(ctx, tx, r)) };
  }),
);

export const listStyleguideTemplates = defineOperation('listStyleguideTemplates', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    requireOrgRole(membershipOf(tx, path.organizationId, caller).member, 'read', 'listing style guide templates');
    return { status: 200, body: { templates: STYLEGUIDE_TEMPLATES.map((t) => ({ ...t })) } };
  }),
);

export const listOrganizationStyleguides = defineOperation('listOrganizationStyleguides', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const { org, member } = membershipOf(tx, path.organizationId, caller);
    requireOrgRole(member, 'read', 'listing the style guides of the organization');
    // The style guide spaces the caller may read, each with the sites they see that use it.
    const spaces = listSpaces(tx, caller, org.id).filter(({ row }) => row.type === 'styleguide' && !row.deletedAt);
    prefetchSpaces(tx, spaces);
    const sites = spaces.length ? listSites(tx, caller, org.id, {}).sites : [];
    const viewer = contentAccess(tx, org.id, caller);
    return {
      status: 200,
      body: {
        styleguides: spaces.map(({ row, level }) => ({
          space: presentSpace(ctx, spaceRow(tx, row), level, spaceCounts(tx, row.id)),
          sites: sites.filter((s) => s.styleguide === row.id).map((s) => presentSite(ctx, tx, org, s, undefined, viewer)),
        })),
      },
    };
  }),
);
