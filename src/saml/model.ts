import type { MemberRole } from '../kernel/roles.js';

/** A SAML identity provider configured for an organization. */
export interface SamlProviderRecord {
  id: string;
  organization: string;
  label: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  /** Team that users signing up through this provider join. */
  defaultTeam?: string;
  /** Role that users signing up through this provider get. */
  defaultRole: MemberRole;
  createdAt: string;
}

// Whether a provider is active: defined in organizations/ (below), which needs it too.
export { isActiveProvider } from '../organizations/sso.js';
