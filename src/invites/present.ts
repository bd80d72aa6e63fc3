import type { Schema } from '../contract/types.js';
import type { MemberRecord } from '../organizations/model.js';
import type { InviteLinkRecord } from './model.js';
import { covers } from './service.js';

/** The contract's InviteLinkToOrganization; `redundant` when the caller already has what it grants. */
export function presentInviteLink(caller: MemberRecord | undefined, link: InviteLinkRecord): Schema<'OrganizationInviteLink'> {
  return { object: 'invite' as const, id: link.id, role: link.role, redundant: !!caller && covers(caller.role, link.role) };
}
