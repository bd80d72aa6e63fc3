import type { MemberRole } from '../kernel/roles.js';

export type MergeRules = { type: 'none' } | { type: 'rules'; rules: { rule: string; users?: string[]; expression?: string }[] };

export interface OrganizationRecord {
  id: string;
  title: string;
  createdAt: string;
  emailDomains: string[];
  hostname?: string;
  type: 'business' | 'community';
  plan: string;
  defaultRole: MemberRole;
  /** What visitors land on: a docs site of the organization. */
  defaultContent?: { type: 'site'; site: string };
  logo?: string;
  /** SSO enforced organization-wide (needs an active SAML provider). */
  sso?: boolean;
  ai?: boolean;
  inviteLinks: boolean;
  mergeRules: MergeRules;
}

/** A user's membership of an organization. Row id is `<organization>.<user>`; API id is the user's. */
export interface MemberRecord {
  id: string;
  organization: string;
  user: string;
  role: MemberRole;
  joinedAt: string;
  lastSeenAt?: string;
  disabled: boolean;
  sso: boolean;
}

export const memberRowId = (organization: string, user: string) => `${organization}.${user}`;
