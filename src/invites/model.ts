import type { MemberRole } from '../kernel/roles.js';

/** An invite link to an organization: whoever opens it joins with `role`. */
export interface InviteLinkRecord {
  id: string;
  organization: string;
  role: MemberRole;
  createdAt: string;
  createdBy: string;
}

/**
 * An invitation of an existing user to an organization, waiting for that user to accept or
 * decline it (docs invites pending). Until accepted it grants nothing: no membership, no sight of
 * the organization. One per user and organization; inviting again updates the role.
 */
export interface InvitationRecord {
  id: string;
  organization: string;
  user: string;
  role: MemberRole;
  sso: boolean;
  invitedBy: string;
  createdAt: string;
}
