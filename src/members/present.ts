import type { Schema } from '../contract/types.js';
import type { Context } from '../kernel/context.js';
import type { MemberRecord } from '../organizations/model.js';
import { spacesReachable } from '../tree/space-access.js';
import { sitesReachable } from '../sites/access.js';
import type { ReadTx } from '../store/port.js';
import { teamsOfUser } from '../teams/service.js';
import { presentUser } from '../users/present.js';
import { Users } from '../users/tables.js';

/** The contract's OrganizationMember: the API id is the user's id; counts are computed, never stored. */
export function presentMember(ctx: Context, tx: ReadTx, m: MemberRecord): Schema<'OrganizationMember'> {
  const user = tx.get(Users, m.user);
  return {
    object: 'member' as const,
    id: m.user,
    role: m.role,
    user: user
      ? presentUser(ctx, user)
      : { object: 'user' as const, id: m.user, displayName: '(deleted user)', urls: { location: `${ctx.baseUrl}/v1/users/${m.user}` } },
    disabled: m.disabled,
    joinedAt: m.joinedAt,
    ...(m.lastSeenAt ? { lastSeenAt: m.lastSeenAt } : {}),
    sso: m.sso,
    spaces: spacesReachable(tx, m.organization, { member: m.user }),
    teams: teamsOfUser(tx, m.organization, m.user).length,
    sites: sitesReachable(tx, m),
  };
}
