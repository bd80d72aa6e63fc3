import type { MemberRole } from '../kernel/roles.js';

export interface OrganizationRecord {
  id: string;
  title: string;
  createdAt: string;
  emailDomains: string[];
  hostname?: string;
  type: 'business' | 'community';
  plan: string;
  defaultRole: MemberRole;
  inviteLinks: boolean;
  mergeRules: { type: 'none' } | { type: 'rules'; rules: { rule: string; users: string[] }[] };
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
