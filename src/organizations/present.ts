import type { Schema } from '../contract/types.js';
import { apiUrl, type Context } from '../kernel/context.js';
import { presentOnce, type Presented } from '../kernel/serialized.js';
import type { MemberRole } from '../kernel/roles.js';
import type { OrganizationRecord } from './model.js';
import { organizationPermissions } from './permissions.js';

const presented = new WeakMap<OrganizationRecord, Presented>();

/** The contract's Organization object, as seen by a member of the given role (serialized once per inputs). */
export function presentOrganization(ctx: Context, o: OrganizationRecord, role: MemberRole, ownsTeam = false): Schema<'Organization'> {
  return presentOnce(presented, o, `${role}\0${ownsTeam}\0${ctx.baseUrl}`, () => buildOrganization(ctx, o, role, ownsTeam));
}

function buildOrganization(ctx: Context, o: OrganizationRecord, role: MemberRole, ownsTeam: boolean): Schema<'Organization'> {
  return {
    object: 'organization' as const,
    id: o.id,
    title: o.title,
    createdAt: o.createdAt,
    emailDomains: o.emailDomains,
    ...(o.hostname ? { hostname: o.hostname } : {}),
    type: o.type,
    defaultRole: o.defaultRole,
    ...(o.defaultContent ? { defaultContent: o.defaultContent } : {}),
    ...(o.sso !== undefined ? { sso: o.sso } : {}),
    ...(o.ai !== undefined ? { ai: o.ai } : {}),
    inviteLinks: o.inviteLinks,
    // Stored as validated on input, or as this server writes them (a plan of the contract).
    plan: o.plan as Schema<'Organization'>['plan'],
    mergeRules: o.mergeRules as Schema<'Organization'>['mergeRules'],
    // A local installation has no billing: no trial applies.
    trial: { status: 'notapplicable' as const, count: 0 },
    urls: { location: apiUrl(ctx, `/orgs/${o.id}`), app: `${ctx.baseUrl}/o/${o.id}`, ...(o.logo ? { logo: o.logo } : {}) },
    permissions: organizationPermissions(role, ownsTeam),
  };
}
