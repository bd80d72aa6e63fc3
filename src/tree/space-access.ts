import type { MemberRole } from '../kernel/roles.js';
import type { ReadTx } from '../store/port.js';
import { ContentAccess } from './access.js';
import { type SpaceEntry, walk } from './order.js';
import { memberRowId } from '../organizations/model.js';
import { Grants } from './grants.js';
import { Members, Organizations } from '../organizations/tables.js';

/** Whose reach of spaces is counted: a member (by user id) or a team. */
export type SpaceHolder = { member: string } | { team: string };

/**
 * The organization's live spaces a member reaches, with the level they have on each, in tree
 * order: their organization role through each item's `defaultLevel` (src/tree/access.ts).
 */
export function spacesOfMember(tx: ReadTx, organization: string, userId: string): { row: SpaceEntry; level: MemberRole }[] {
  const org = tx.get(Organizations, organization);
  const member = tx.get(Members, memberRowId(organization, userId));
  if (!org || !member || member.disabled) return [];
  const access = new ContentAccess(tx, org, member);
  return walk(tx, organization)
    .filter(({ item }) => item.kind === 'space')
    .map(({ item }) => ({ row: item.row as SpaceEntry, level: access.space(item.row as SpaceEntry) }))
    .filter((x) => x.level !== null);
}

/**
 * The `spaces` count of a Member and of a Team. A member's: the spaces they reach. A team's:
 * the live spaces the team was given a permission on, directly or on a collection above them
 * (src/tree/grants.ts).
 */
export function spacesReachable(tx: ReadTx, organization: string, holder: SpaceHolder): number {
  if ('member' in holder) return spacesOfMember(tx, organization, holder.member).length;
  const given = new Set(
    tx
      .find(Grants, 'organization', organization)
      .filter((g) => g.holderKind === 'team' && g.holder === holder.team && g.targetKind !== 'site')
      .map((g) => g.target),
  );
  if (!given.size) return 0;
  let count = 0;
  const reached = new Set<string>();
  for (const { item } of walk(tx, organization)) {
    const parent = item.row.parent;
    const inside = given.has(item.row.id) || (parent !== null && reached.has(parent));
    if (item.kind === 'collection' && inside) reached.add(item.row.id);
    if (item.kind === 'space' && inside) count++;
  }
  return count;
}
