import { atLeast, type MemberRole } from '../kernel/roles.js';

/**
 * The Organization `permissions` booleans for a member of the given role. The contract names
 * them; which role grants which is our choice (README "Roles"): admins do everything; content
 * creators create content and OpenAPI specs; every non-guest member can list the organization's
 * members, teams and integrations; guests only see the organization.
 */
export function organizationPermissions(role: MemberRole) {
  const admin = atLeast(role, 'admin');
  const create = atLeast(role, 'create');
  const member = atLeast(role, 'read');
  return {
    view: true,
    // `access` (latest spec only): reach the organization's content, which guests do not.
    access: member,
    admin,
    ownTeam: create,
    createContent: create,
    createOpenAPISpec: create,
    ingestConversations: admin,
    viewBilling: admin,
    listMembers: member,
    listTeams: member,
    listIntegrations: member,
    listInstallations: admin,
    installIntegration: admin,
  };
}
