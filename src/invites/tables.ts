import { table } from '../store/port.js';
import type { InvitationRecord, InviteLinkRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): another area reads these rows by
// importing a handle from here, an import the layering test checks. Pending invitations of existing users (./pending.ts) and invite links.
// The second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const Invitations = table<InvitationRecord, 'user' | 'organization'>('invitations');
export const InviteLinks = table<InviteLinkRecord, 'organization'>('inviteLinks');
