import { atLeast, type MemberRole, type Role } from '../kernel/roles.js';
import type { MemberRecord } from '../organizations/model.js';
import { table, type ReadTx, type WriteTx } from '../store/port.js';
import { TeamMembers } from '../teams/tables.js';

/**
 * Permissions given on one item to one user or one team (inviteToSpace, inviteToCollection,
 * inviteToSite and their update operations; docs/manual/permissions.md). A grant only adds: the level
 * a member has on an item is the highest of what their organization role gives there
 * (src/tree/access.ts), their own grants and their teams' grants on the item, and, for a space or
 * a collection, the grants on every collection above it (a collection's grants apply to all it
 * holds, as GitBook's "inherited" permissions). Removing a grant (role null) deletes the row, so
 * the access it gave ends with the write.
 */
export type GrantTarget = 'space' | 'collection' | 'site';
export type GrantHolder = 'user' | 'team';

export interface GrantRecord {
  id: string;
  organization: string;
  targetKind: GrantTarget;
  target: string;
  holderKind: GrantHolder;
  holder: string;
  role: Role;
  grantedAt: string;
  grantedBy: string;
}

/** The table of grants (a handle, see Table in src/store/port.ts), beside its row type: one module, no circle. */
export const Grants = table<GrantRecord, 'organization' | 'target'>('grants');

export const grantRowId = (targetKind: GrantTarget, target: string, holderKind: GrantHolder, holder: string) =>
  `${targetKind}.${target}.${holderKind}.${holder}`;

const RANK: Record<Role, number> = { admin: 6, create: 5, review: 4, edit: 3, comment: 2, read: 1 };

/** The higher of two levels (null: none). */
export function higher(a: MemberRole, b: MemberRole): MemberRole {
  if (a === null) return b;
  if (b === null) return a;
  return RANK[a] >= RANK[b] ? a : b;
}

/** Grants of an organization on one item (unordered). */
export function grantsOn(tx: ReadTx, organization: string, targetKind: GrantTarget, target: string): GrantRecord[] {
  return tx.find(Grants, 'target', target).filter((g) => g.organization === organization && g.targetKind === targetKind);
}

/**
 * What one member holds through grants in their organization: per item (`<kind>.<id>`) the
 * highest role given to them or to a team they belong to. Read once per access check.
 */
export class MemberGrants {
  private readonly byItem = new Map<string, Role>();

  constructor(tx: ReadTx, member: MemberRecord) {
    if (member.disabled) return;
    const grants = tx.find(Grants, 'organization', member.organization);
    if (!grants.length) return;
    // The member's teams only when a team holds a grant: finding them by user reads the
    // directory (and the shards of their other organizations' teams).
    const teams = grants.some((g) => g.holderKind === 'team')
      ? new Set(
          tx
            .find(TeamMembers, 'user', member.user)
            .filter((t) => t.organization === member.organization)
            .map((t) => t.team),
        )
      : new Set<string>();
    for (const g of grants) {
      const mine = g.holderKind === 'user' ? g.holder === member.user : teams.has(g.holder);
      if (!mine) continue;
      const key = `${g.targetKind}.${g.target}`;
      this.byItem.set(key, higher(this.byItem.get(key) ?? null, g.role) as Role);
    }
  }

  /** The highest role granted to the member on the item itself (not above it), or null. */
  on(kind: GrantTarget, id: string): MemberRole {
    return this.byItem.get(`${kind}.${id}`) ?? null;
  }

  get empty(): boolean {
    return this.byItem.size === 0;
  }
}

/** Whether `level` may be given by someone holding `own` (never above one's own level). */
export const mayGive = (own: MemberRole, level: Role) => atLeast(own, level);

/** Removes every grant held by a user or a team in an organization (they left, or the team is gone). */
export function dropGrantsOf(tx: WriteTx, organization: string, holderKind: GrantHolder, holder: string): void {
  for (const g of tx.find(Grants, 'organization', organization)) {
    if (g.holderKind === holderKind && g.holder === holder) tx.delete(Grants, g.id);
  }
}

/** Removes every grant on an item (the item is deleted for good). */
export function dropGrantsOn(tx: WriteTx, organization: string, targetKind: GrantTarget, target: string): void {
  for (const g of grantsOn(tx, organization, targetKind, target)) tx.delete(Grants, g.id);
}
