// Shared by docs invites pending|accept|decline: the caller's pending invitations at
// /_docs/invitations (src/invites/pending.ts), in-process or on the server (Transport.docs).

export const INVITATIONS_PATH = '/_docs/invitations';

export interface InvitationView {
  id: string;
  organization: { id: string; title: string };
  role: string | null;
  invitedBy: { email: string } | null;
  createdAt: string;
}
