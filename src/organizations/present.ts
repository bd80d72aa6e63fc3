import { apiUrl, type Context } from '../kernel/context.js';
import type { MemberRole } from '../kernel/roles.js';
import type { OrganizationRecord } from './model.js';
import { organizationPermissions } from './permissions.js';

/** The contract's Organization object, as seen by a member of the given role. */
export function presentOrganization(ctx: Context, o: OrganizationRecord, role: MemberRole, ownsTeam = false) {
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
    plan: o.plan,
    mergeRules: o.mergeRules,
    // A local installation has no billing: no trial applies.
    trial: { status: 'notapplicable' as const, count: 0 },
    urls: { location: apiUrl(ctx, `/orgs/${o.id}`), app: `${ctx.baseUrl}/o/${o.id}`, ...(o.logo ? { logo: o.logo } : {}) },
    permissions: organizationPermissions(role, ownsTeam),
  };
}
