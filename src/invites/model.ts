import type { MemberRole } from '../kernel/roles.js';

/** An invite link to an organization: whoever opens it joins with `role`. */
export interface InviteLinkRecord {
  id: string;
  organization: string;
  role: MemberRole;
  createdAt: string;
  createdBy: string;
}
