import type { MemberRole } from '../kernel/roles.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { ReadTx } from '../store/port.js';
import { ContentAccess } from './access.js';
import { walk } from './order.js';
import { memberRowId, type MemberRecord, type OrganizationRecord } from '../organizations/model.js';

/** Whose reach of spaces is counted: a member (by user id) or a team. */
export type SpaceHolder = { member: string } | { team: string };

/**
 * The organization's live spaces a member reaches, with the level they have on each, in tree
 * order: their organization role through each item's `defaultLevel` (src/tree/access.ts).
 */
export function spacesOfMember(tx: ReadTx, organization: string, userId: string): { row: SpaceRecord; level: MemberRole }[] {
  const org = tx.get<OrganizationRecord>('organizations', organization);
  const member = tx.get<MemberRecord>('members', memberRowId(organization, userId));
  if (!org || !member || member.disabled) return [];
  const access = new ContentAccess(tx, org, member);
  return walk(tx, organization)
    .filter(({ item }) => item.kind === 'space')
    .map(({ item }) => ({ row: item.row as SpaceRecord, level: access.space(item.row as SpaceRecord) }))
    .filter((x) => x.level !== null);
}

/**
 * The `spaces` count of a Member and of a Team. A member's: the spaces they reach. A team's:
 * the spaces the team was given a permission on. Access is granted through organization roles
 * and `defaultLevel` only: the per-space and per-collection permission routes (inviteToSpace,
 * team permissions) are not served, so no space grants a team anything and the count is 0.
 */
export function spacesReachable(tx: ReadTx, organization: string, holder: SpaceHolder): number {
  return 'member' in holder ? spacesOfMember(tx, organization, holder.member).length : 0;
}
