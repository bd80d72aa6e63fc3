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

/**
 * `active` once the identity provider's side is fully known (entity ID, certificate, SSO URL):
 * only then can anyone sign in through it. Until then `pending`.
 */
export const isActiveProvider = (p: SamlProviderRecord) => !!(p.entityID && p.certificate && p.ssoURL);
