import type { Caller, Context } from '../kernel/context.js';
import { forbidden, notFound } from '../kernel/errors.js';
import { atLeast, type MemberRole, type Role } from '../kernel/roles.js';
import { newId } from '../kernel/ids.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { memberRowId, type MemberRecord, type OrganizationRecord } from './model.js';
import { Members, Organizations } from './tables.js';

/** The caller's membership, or a 404 that does not reveal whether the organization exists. */
export function membershipOf(tx: ReadTx, organizationId: string, caller: Caller): { org: OrganizationRecord; member: MemberRecord } {
  const org = tx.get(Organizations, organizationId);
  const member = org && tx.get(Members, memberRowId(org.id, caller.userId));
  if (!org || !member || member.disabled) throw notFound(`organization ${organizationId} not found`);
  return { org, member };
}

/** Organizations the caller belongs to, oldest first (ties by id, so pages are stable). */
export function organizationsOf(tx: ReadTx, caller: Caller) {
  return tx
    .find(Members, 'user', caller.userId)
    .filter((m) => !m.disabled)
    .map((member) => ({ member, org: tx.get(Organizations, member.organization)! }))
    .filter((x) => x.org)
    .sort((a, b) => a.org.createdAt.localeCompare(b.org.createdAt) || a.org.id.localeCompare(b.org.id));
}

export interface NewOrganization {
  title: string;
  emailDomains?: string[];
}

/** Creates an organization whose first member, an admin, is `userId`. */
export function insertOrganization(tx: WriteTx, ctx: Context, input: NewOrganization, userId: string) {
  const now = ctx.clock.now().toISOString();
  const org = tx.put(Organizations, {
    id: newId(),
    title: input.title,
    createdAt: now,
    emailDomains: [...new Set(input.emailDomains ?? [])],
    type: 'business',
    plan: 'free_2024',
    defaultRole: 'read',
    inviteLinks: true,
    mergeRules: { type: 'none' },
  });
  const member = addMember(tx, ctx, org.id, userId, 'admin');
  return { org, member };
}

/** Makes `userId` a member with `role` (the caller checked that it may). */
export function addMember(tx: WriteTx, ctx: Context, organization: string, userId: string, role: MemberRole, sso = false): MemberRecord {
  return tx.put(Members, {
    id: memberRowId(organization, userId),
    organization,
    user: userId,
    role,
    joinedAt: ctx.clock.now().toISOString(),
    disabled: false,
    sso,
  });
}

/** An active member of the organization, if `userId` is one. */
export function findMember(tx: ReadTx, organization: string, userId: string): MemberRecord | undefined {
  const m = tx.get(Members, memberRowId(organization, userId));
  return m && !m.disabled ? m : undefined;
}

/** A member addressed by a path parameter: 404 when the user is not a member. */
export function requireMember(tx: ReadTx, organization: string, userId: string): MemberRecord {
  const m = findMember(tx, organization, userId);
  if (!m) throw notFound(`member ${userId} not found in this organization`);
  return m;
}

/** Active members of an organization (unordered). */
export function membersOf(tx: ReadTx, organization: string): MemberRecord[] {
  return tx.find(Members, 'organization', organization).filter((m) => !m.disabled);
}

/** 403 unless the member has at least `role`; the message says what is missing and for what. */
export function requireOrgRole(member: MemberRecord, role: Role, action: string): void {
  if (!atLeast(member.role, role)) {
    throw forbidden(`${action} needs the ${role} role in this organization (you have ${member.role ?? 'guest'})`);
  }
}
