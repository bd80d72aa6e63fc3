import { atLeast, type MemberRole } from '../kernel/roles.js';

/**
 * The Organization `permissions` booleans for a member of the given role. The contract names
 * them; which role grants which is our choice (docs/manual/decisions.md): admins do everything; content
 * creators create content, OpenAPI specs and teams; every non-guest member can list the organization's
 * members, teams and integrations; guests only see the organization.
 */
export function organizationPermissions(role: MemberRole, ownsTeam = false) {
  const admin = atLeast(role, 'admin');
  const create = atLeast(role, 'create');
  const member = atLeast(role, 'read');
  return {
    view: true,
    // `access` (latest spec only): reach the organization's content, which guests do not.
    access: member,
    admin,
    // Members with `create` and up can create (and so own) teams; anyone an owner of a team
    // manages it whatever their role.
    ownTeam: create || ownsTeam,
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
