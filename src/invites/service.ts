import type { Context } from '../kernel/context.js';
import { DocsError, forbidden, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { atLeast, type MemberRole } from '../kernel/roles.js';
import { inAnotherOrganization } from '../members/service.js';
import type { MemberRecord, OrganizationRecord } from '../organizations/model.js';
import { addMember, findMember, requireOrgRole } from '../organizations/service.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { isEmailVerified, userByEmail } from '../users/instance.js';
import type { InviteLinkRecord } from './model.js';
import { inviteExisting, settleInvitation } from './pending.js';
import { InviteLinks } from './tables.js';
import { Members, Organizations } from '../organizations/tables.js';
import { Users } from '../users/tables.js';

// An email address as people type them: local@domain, no spaces (domain may be a bare host: localhost). Deliverability is
// not ours to judge; this catches typos such as a missing @ or domain.
const EMAIL = /^[^\s@]+@[^\s@.][^\s@]*$/;

/** Does `role` already give everything `wanted` would? (Guest links add nothing to a member.) */
export const covers = (role: MemberRole, wanted: MemberRole) => wanted === null || atLeast(role, wanted);

// ---- invite links -------------------------------------------------------------------------

export const linksOf = (tx: ReadTx, organization: string) =>
  tx.find(InviteLinks, 'organization', organization).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));

export function requireLink(tx: ReadTx, organization: string, id: string): InviteLinkRecord {
  const link = tx.get(InviteLinks, id);
  if (!link || link.organization !== organization) throw notFound(`invite ${id} not found`);
  return link;
}

function requireLinksOn(org: OrganizationRecord) {
  if (!org.inviteLinks)
    throw new DocsError('precondition', 'inviteLinks: invite links are turned off in this organization (an admin can turn them on with inviteLinks: true)');
}

export function createLink(
  tx: WriteTx,
  ctx: Context,
  caller: MemberRecord,
  org: OrganizationRecord,
  body: { role?: MemberRole; space?: string; collection?: string },
): InviteLinkRecord {
  requireOrgRole(caller, 'admin', 'creating an invite link');
  // Links to one space or collection need those areas; only organization links exist here.
  if (body.space !== undefined)
    throw invalid(`space: no space ${body.space} in this organization (invite links to spaces are not available on this server yet)`);
  if (body.collection !== undefined)
    throw invalid(`collection: no collection ${body.collection} in this organization (invite links to collections are not available on this server yet)`);
  requireLinksOn(org);
  return tx.put(InviteLinks, {
    id: newId(),
    organization: org.id,
    role: body.role ?? null,
    createdAt: ctx.clock.now().toISOString(),
    createdBy: caller.user,
  });
}

export function updateLink(tx: WriteTx, caller: MemberRecord, id: string, body: { role?: MemberRole; level?: MemberRole }): InviteLinkRecord {
  requireOrgRole(caller, 'admin', 'changing an invite link');
  const link = requireLink(tx, caller.organization, id);
  if (body.role === undefined) throw invalid('level: organization invite links have a role, not a level (send role)');
  return body.role === link.role ? link : tx.put(InviteLinks, { ...link, role: body.role });
}

/** False when there was no such link. */
export function deleteLink(tx: WriteTx, caller: MemberRecord, id: string): boolean {
  requireOrgRole(caller, 'admin', 'deleting an invite link');
  const link = tx.get(InviteLinks, id);
  if (!link || link.organization !== caller.organization) return false;
  return tx.delete(InviteLinks, id);
}

/** An invite link read by whoever holds its id (see joinWithLink); the caller's membership, if any. */
export function linkForHolder(tx: ReadTx, organizationId: string, userId: string, inviteId: string): { link: InviteLinkRecord; member?: MemberRecord } {
  const link = tx.get(InviteLinks, inviteId);
  if (!link || link.organization !== organizationId) throw notFound(`invite ${inviteId} not found`);
  return { link, member: findMember(tx, organizationId, userId) };
}

/**
 * Joins through an invite link. Anyone holding the link may use it (that is what a link is for),
 * so a non-member reaches this organization here; a wrong link id is a 404 all the same. A member
 * whose role is below the link's is raised to it; otherwise nothing changes.
 */
export function joinWithLink(tx: WriteTx, ctx: Context, organizationId: string, userId: string, inviteId: string): void {
  const org = tx.get(Organizations, organizationId);
  const link = org && tx.get(InviteLinks, inviteId);
  if (!org || !link || link.organization !== org.id) throw notFound(`invite ${inviteId} not found`);
  if (!org.inviteLinks) throw forbidden('inviteLinks: invite links are turned off in this organization');
  const member = findMember(tx, org.id, userId);
  if (!member) settleInvitation(tx, addMember(tx, ctx, org.id, userId, link.role));
  else if (!covers(member.role, link.role)) tx.put(Members, { ...member, role: link.role });
}

// ---- joining by email domain --------------------------------------------------------------

/**
 * Joins an organization whose allowed email domains include the caller's, for a caller whose email
 * address the instance verified (this server sends no mail: see src/users/instance.ts); otherwise
 * anyone could invite `someone@victim.com` into an organization of their own, get that user's
 * token, and walk into every organization allowing victim.com. A member already in it changes nothing.
 */
export function joinByDomain(tx: WriteTx, ctx: Context, organizationId: string, userId: string): void {
  const org = tx.get(Organizations, organizationId);
  if (!org) throw notFound(`organization ${organizationId} not found`);
  if (findMember(tx, org.id, userId)) return;
  const user = tx.get(Users, userId)!;
  const domain = user.email.split('@').pop()!.toLowerCase();
  if (!org.emailDomains.some((d) => d.toLowerCase() === domain)) {
    throw forbidden(`joining organization ${org.id} needs an email address in one of its allowed domains; ${domain} is not one of them`);
  }
  if (!isEmailVerified(tx, user)) {
    throw forbidden(
      `joining organization ${org.id} by email domain needs a verified email address; ${user.email} is not verified on this instance (an instance owner verifies it: docs users update ${user.email} --email-verified)`,
    );
  }
  settleInvitation(tx, addMember(tx, ctx, org.id, userId, org.defaultRole));
}

// ---- invites by email ---------------------------------------------------------------------

export interface InviteByEmail {
  emails: (string | { email: string; role: MemberRole })[];
  role?: MemberRole;
  sso?: boolean;
}

/**
 * Invites people by email address. An address nobody has yet gets a new user, added at once (it
 * has no token until it or an instance owner makes one, and its email is not verified). A user
 * who already exists is not added: they get a pending invitation to accept or decline
 * (./pending.ts), so that no admin makes anyone a member without their consent. Members are left
 * as they are and not counted. With `sso`, each is made an SSO member unless they belong to
 * another organization (then they are invited without SSO and listed in `failedSSOEmails`).
 */
export function inviteByEmail(tx: WriteTx, ctx: Context, caller: MemberRecord, org: OrganizationRecord, body: InviteByEmail) {
  requireOrgRole(caller, 'admin', 'inviting people');
  if (body.emails.length === 0) throw invalid('emails: must list at least one email address');
  const wanted = new Map<string, MemberRole>();
  body.emails.forEach((e, i) => {
    const raw = typeof e === 'string' ? e : e.email;
    const email = raw.trim().toLowerCase();
    if (!EMAIL.test(email)) throw invalid(`emails[${i}]: ${JSON.stringify(raw)} is not an email address`);
    if (!wanted.has(email)) wanted.set(email, typeof e === 'string' ? (body.role !== undefined ? body.role : org.defaultRole) : e.role);
  });
  const users: string[] = [];
  const failedSSOEmails: string[] = [];
  for (const [email, role] of wanted) {
    const existing = userByEmail(tx, email);
    if (existing && findMember(tx, org.id, existing.id)) continue;
    let sso = !!body.sso;
    if (sso && existing && inAnotherOrganization(tx, org.id, existing.id)) {
      sso = false;
      failedSSOEmails.push(email);
    }
    if (existing) {
      inviteExisting(tx, ctx, org, existing.id, role, sso, caller.user);
      users.push(existing.id);
    } else {
      // Not emailVerified: nobody proved the address (src/users/instance.ts).
      const user = tx.put(Users, { id: newId(), displayName: email.split('@')[0]!, email, createdAt: ctx.clock.now().toISOString() });
      addMember(tx, ctx, org.id, user.id, role, sso);
      users.push(user.id);
    }
  }
  return { users, invited: users.length, ...(body.sso ? { failedSSOEmails } : {}) };
}
