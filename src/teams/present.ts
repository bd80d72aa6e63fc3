import type { Schema } from '../contract/types.js';
import type { MemberRecord } from '../organizations/model.js';
import { spacesReachable } from '../tree/space-access.js';
import type { ReadTx } from '../store/port.js';
import type { TeamRecord } from './model.js';
import { teamMembersOf, teamRights } from './service.js';

/** The contract's Team, with counts and the caller's permissions on it. */
export function presentTeam(tx: ReadTx, caller: MemberRecord, t: TeamRecord): Schema<'OrganizationTeam'> {
  return {
    object: 'team' as const,
    id: t.id,
    title: t.title,
    members: teamMembersOf(tx, t.id).length,
    spaces: spacesReachable(tx, t.organization, { team: t.id }),
    createdAt: t.createdAt,
    permissions: teamRights(tx, caller, t),
  };
}
