import type { Caller, Context } from '../kernel/context.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import type { ReadTx } from '../store/port.js';
import { presentTeam } from '../teams/present.js';
import { presentUser } from '../users/present.js';
import {
  aggregate,
  collectionTarget,
  grantsOfKind,
  invite,
  removeOne,
  requireList,
  siteTarget,
  spaceTarget,
  updateOne,
  type PermissionTarget,
} from './service.js';
import { Teams } from '../teams/tables.js';
import { Users } from '../users/tables.js';

// Permissions given on spaces, collections and sites to users and teams (docs/manual/permissions.md;
// the rules are in ./service.ts, how they take effect in src/tree/grants.ts). Every write answers
// 204; a grant is removed by updating it to role null, or by remove*From* (205 removed, 204 none).

type Target = (tx: ReadTx, caller: Caller, path: Record<string, string>) => PermissionTarget;
const TARGETS: Record<'Space' | 'Collection' | 'Site', Target> = {
  Space: (tx, caller, path) => spaceTarget(tx, caller, path.spaceId!),
  Collection: (tx, caller, path) => collectionTarget(tx, caller, path.collectionId!),
  Site: (tx, caller, path) => siteTarget(tx, caller, path.organizationId!, path.siteId!),
};

// The ids each factory below declares (their input types: docs/manual/contract.md#the-contracts-types).
type Of<Verb extends string> = `${Verb}${'Space' | 'Collection' | 'Site'}`;

const inviteOp = (id: Of<'inviteTo'>, target: Target) =>
  defineOperation<Of<'inviteTo'>>(id, async ({ ctx, caller, path, body }) => {
    await ctx.store.write((tx) => invite(tx, ctx, target(tx, caller, path), body ?? {}));
    return { status: 204 };
  });

const updateOp = (id: Of<'updateUserPermissionIn' | 'updateTeamPermissionIn'>, target: Target, holder: 'user' | 'team') =>
  defineOperation<Of<'updateUserPermissionIn' | 'updateTeamPermissionIn'>>(id, async ({ ctx, caller, path: p, body }) => {
    const path: Record<string, string> = p;
    await ctx.store.write((tx) => updateOne(tx, ctx, target(tx, caller, path), holder, holder === 'user' ? path.userId! : path.teamId!, body));
    return { status: 204 };
  });

const removeOp = (id: Of<'removeUserFrom' | 'removeTeamFrom'>, target: Target, holder: 'user' | 'team') =>
  defineOperation<Of<'removeUserFrom' | 'removeTeamFrom'>>(id, async ({ ctx, caller, path: p }) => {
    const path: Record<string, string> = p;
    const removed = await ctx.store.write((tx) => removeOne(tx, ctx, target(tx, caller, path), holder, holder === 'user' ? path.userId! : path.teamId!));
    return { status: removed ? 205 : 204 };
  });

const listUsersOp = (id: Of<'listUserPermissionsIn'>, target: Target) =>
  defineOperation<Of<'listUserPermissionsIn'>>(id, ({ ctx, caller, path, query }) =>
    ctx.store.read((tx) => {
      const t = target(tx, caller, path);
      requireList(t);
      const rows = grantsOfKind(tx, t, 'user');
      return { status: 200, body: paginate(rows, query, (g) => ({ permission: g.role, user: presentUser(ctx, tx.get(Users, g.holder)!) })) };
    }),
  );

const listTeamsOp = (id: Of<'listTeamPermissionsIn'>, target: Target) =>
  defineOperation<Of<'listTeamPermissionsIn'>>(id, ({ ctx, caller, path, query }) =>
    ctx.store.read((tx) => {
      const t = target(tx, caller, path);
      requireList(t);
      const rows = grantsOfKind(tx, t, 'team');
      return { status: 200, body: paginate(rows, query, (g) => ({ permission: g.role, team: presentTeam(tx, t.caller, tx.get(Teams, g.holder)!) })) };
    }),
  );

const aggregateOp = (id: Of<'listPermissionsAggregateIn'>, target: Target) =>
  defineOperation<Of<'listPermissionsAggregateIn'>>(id, ({ ctx, caller, path, query }) =>
    ctx.store.read((tx) => {
      const t = target(tx, caller, path);
      requireList(t);
      const rows = aggregate(tx, t, query as { role?: string; team?: string; search?: string });
      return { status: 200, body: paginate(rows, query, (e) => presentEffective(ctx, t, e)) };
    }),
  );

function presentEffective(ctx: Context, t: PermissionTarget, e: ReturnType<typeof aggregate>[number]) {
  const user = presentUser(ctx, e.user);
  if (t.kind !== 'site') return { permission: e.level, user };
  const origin =
    e.origin.type === 'organization'
      ? { type: 'organization' as const, organization: t.org.id }
      : { type: 'site' as const, site: t.id, reason: e.origin.reason, ...(e.origin.reason === 'team' ? { team: e.origin.team } : {}) };
  return { permission: e.level, user, origin, disabled: e.member.disabled, ...(e.member.lastSeenAt ? { lastSeenAt: e.member.lastSeenAt } : {}) };
}

export const inviteToSpace = inviteOp('inviteToSpace', TARGETS.Space);
export const listUserPermissionsInSpace = listUsersOp('listUserPermissionsInSpace', TARGETS.Space);
export const updateUserPermissionInSpace = updateOp('updateUserPermissionInSpace', TARGETS.Space, 'user');
export const listTeamPermissionsInSpace = listTeamsOp('listTeamPermissionsInSpace', TARGETS.Space);
export const updateTeamPermissionInSpace = updateOp('updateTeamPermissionInSpace', TARGETS.Space, 'team');
export const listPermissionsAggregateInSpace = aggregateOp('listPermissionsAggregateInSpace', TARGETS.Space);

export const inviteToCollection = inviteOp('inviteToCollection', TARGETS.Collection);
export const listUserPermissionsInCollection = listUsersOp('listUserPermissionsInCollection', TARGETS.Collection);
export const updateUserPermissionInCollection = updateOp('updateUserPermissionInCollection', TARGETS.Collection, 'user');
export const listTeamPermissionsInCollection = listTeamsOp('listTeamPermissionsInCollection', TARGETS.Collection);
export const updateTeamPermissionInCollection = updateOp('updateTeamPermissionInCollection', TARGETS.Collection, 'team');
export const listPermissionsAggregateInCollection = aggregateOp('listPermissionsAggregateInCollection', TARGETS.Collection);

export const inviteToSite = inviteOp('inviteToSite', TARGETS.Site);
export const listUserPermissionsInSite = listUsersOp('listUserPermissionsInSite', TARGETS.Site);
export const updateUserPermissionInSite = updateOp('updateUserPermissionInSite', TARGETS.Site, 'user');
export const listTeamPermissionsInSite = listTeamsOp('listTeamPermissionsInSite', TARGETS.Site);
export const updateTeamPermissionInSite = updateOp('updateTeamPermissionInSite', TARGETS.Site, 'team');
export const listPermissionsAggregateInSite = aggregateOp('listPermissionsAggregateInSite', TARGETS.Site);
export const removeUserFromSpace = removeOp('removeUserFromSpace', TARGETS.Space, 'user');
export const removeTeamFromSpace = removeOp('removeTeamFromSpace', TARGETS.Space, 'team');
export const removeUserFromCollection = removeOp('removeUserFromCollection', TARGETS.Collection, 'user');
export const removeTeamFromCollection = removeOp('removeTeamFromCollection', TARGETS.Collection, 'team');
export const removeUserFromSite = removeOp('removeUserFromSite', TARGETS.Site, 'user');
export const removeTeamFromSite = removeOp('removeTeamFromSite', TARGETS.Site, 'team');
