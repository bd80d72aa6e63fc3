import type { Caller, Context } from '../kernel/context.js';
import { DocsError, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { MemberRole } from '../kernel/roles.js';
import { inAnotherOrganization } from '../members/service.js';
import type { MemberRecord, OrganizationRecord } from '../organizations/model.js';
import { addMember, findMember } from '../organizations/service.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import type { InvitationRecord } from './model.js';
import { Invitations } from './tables.js';
import { Organizations } from '../organizations/tables.js';
import { Users } from '../users/tables.js';

// Pending invitations of existing users, as GitBook has them: an admin's invite by email makes
// one for an address that already has a user, and only that user accepts (becoming a member) or
// declines it. Not contract operations: /_docs/invitations (docs invites pending|accept|decline).

/** The invitation of `user` to `organization`, if any. */
export const invitationOf = (tx: ReadTx, organization: string, user: string) => tx.find(Invitations, 'user', user).find((i) => i.organization === organization);

/** Invites an existing user (not yet a member): a new invitation, or the pending one updated. */
export function inviteExisting(tx: WriteTx, ctx: Context, org: OrganizationRecord, user: string, role: MemberRole, sso: boolean, by: string): InvitationRecord {
  const existing = invitationOf(tx, org.id, user);
  if (existing) return tx.put(Invitations, { ...existing, role, sso, invitedBy: by });
  return tx.put(Invitations, { id: newId(), organization: org.id, user, role, sso, invitedBy: by, createdAt: ctx.clock.now().toISOString() });
}

export interface InvitationView {
  object: 'invitation';
  id: string;
  organization: { id: string; title: string };
  role: MemberRole;
  invitedBy: { id: string; displayName: string; email: string } | null;
  createdAt: string;
}

function present(tx: ReadTx, i: InvitationRecord, org: OrganizationRecord): InvitationView {
  const by = tx.get(Users, i.invitedBy);
  return {
    object: 'invitation',
    id: i.id,
    organization: { id: org.id, title: org.title },
    role: i.role,
    invitedBy: by ? { id: by.id, displayName: by.displayName, email: by.email } : null,
    createdAt: i.createdAt,
  };
}

/** The caller's pending invitations, oldest first (those of organizations since deleted are left out). */
export function pendingOf(tx: ReadTx, caller: Caller): { items: InvitationView[]; count: number } {
  const items = tx
    .find(Invitations, 'user', caller.userId)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    .flatMap((i) => {
      const org = tx.get(Organizations, i.organization);
      return org ? [present(tx, i, org)] : [];
    });
  return { items, count: items.length };
}

/** The caller's own invitation: 404 for any other id, so nobody learns of others' invitations. */
function ownInvitation(tx: ReadTx, caller: Caller, id: string): { invitation: InvitationRecord; org?: OrganizationRecord } {
  const invitation = tx.get(Invitations, id);
  if (!invitation || invitation.user !== caller.userId) throw notFound(`invitation ${id} not found (see docs invites pending): nothing changed`);
  return { invitation, org: tx.get(Organizations, invitation.organization) };
}

/**
 * Accepting makes the caller a member with the invitation's role (a member already keeps theirs).
 * SSO membership, as with invites, only for someone in no other organization.
 */
export function acceptInvitation(tx: WriteTx, ctx: Context, caller: Caller, id: string): InvitationView {
  const { invitation, org } = ownInvitation(tx, caller, id);
  if (!org) throw notFound(`invitation ${id} not found: its organization was deleted (docs invites decline ${id} drops it)`);
  tx.delete(Invitations, invitation.id);
  if (!findMember(tx, org.id, caller.userId)) {
    addMember(tx, ctx, org.id, caller.userId, invitation.role, invitation.sso && !inAnotherOrganization(tx, org.id, caller.userId));
  }
  return present(tx, invitation, org);
}

export function declineInvitation(tx: WriteTx, caller: Caller, id: string): InvitationView | undefined {
  const { invitation, org } = ownInvitation(tx, caller, id);
  tx.delete(Invitations, invitation.id);
  return org && present(tx, invitation, org);
}

/** Drops the pending invitation of someone who became a member another way (link, domain, SSO). */
export function settleInvitation(tx: WriteTx, member: MemberRecord): void {
  const pending = invitationOf(tx, member.organization, member.user);
  if (pending) tx.delete(Invitations, pending.id);
}

/**
 * /_docs/invitations[/{id}/accept|decline] for a caller: GET lists theirs, POST .../accept joins,
 * POST .../decline drops it. The server and the in-process transport both answer through here.
 */
export async function invitationRoute(ctx: Context, caller: Caller, method: string, path: string): Promise<{ status: number; body: unknown }> {
  const m = /^\/_docs\/invitations(?:\/([^/]+)\/(accept|decline))?\/?$/.exec(path);
  if (!m) throw notFound(`no route for ${method} ${path} (routes: GET /_docs/invitations, POST /_docs/invitations/{id}/accept|decline)`);
  const allow = m[1] ? ['POST'] : ['GET'];
  if (!allow.includes(method))
    throw Object.assign(new DocsError('method_not_allowed', `${method} is not allowed on ${path} (allowed: ${allow.join(', ')})`), { allow });
  if (!m[1]) return { status: 200, body: await ctx.store.read((tx) => pendingOf(tx, caller)) };
  const id = decodeURIComponent(m[1]);
  if (!id.trim()) throw invalid('id: give an invitation id (see docs invites pending)');
  if (m[2] === 'accept') return { status: 200, body: await ctx.store.write((tx) => acceptInvitation(tx, ctx, caller, id)) };
  const declined = await ctx.store.write((tx) => declineInvitation(tx, caller, id));
  return { status: 200, body: declined ?? { object: 'invitation', id } };
}
