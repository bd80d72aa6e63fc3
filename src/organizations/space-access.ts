import type { ReadTx } from '../store/port.js';

/** Whose reach of spaces is counted: a member (by user id) or a team. */
export type SpaceHolder = { member: string } | { team: string };

/**
 * How many spaces of the organization a member or a team can reach: the `spaces` count of a
 * Member and of a Team. Kept behind this one function because spaces are built in another area:
 * until its tables exist there is nothing to count, so the answer is 0.
 *
 * To wire spaces in: count the organization's live (not deleted) spaces that the holder reaches,
 * from the spaces area's tables (a member: spaces they were given a permission on directly or
 * through one of their teams, plus those their organization role opens; a team: spaces the team
 * was given a permission on).
 */
export function spacesReachable(_tx: ReadTx, _organization: string, _holder: SpaceHolder): number {
  return 0;
}
