import { apiUrl } from '../kernel/context.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { purgeIfExpired } from '../spaces/retention.js';
import { listForSpace } from './filters.js';
import { presentChangeRequest } from './present.js';
import * as service from './service.js';

export const createChangeRequest = defineOperation(
  'createChangeRequest',
  async ({ ctx, caller, path, body }) => {
    await purgeIfExpired(ctx, path.spaceId);
    const { space, cr } = await ctx.store.write((tx) => service.createChangeRequest(tx, ctx, caller, path.spaceId, body ?? {}));
    return {
      status: 201,
      headers: { Location: apiUrl(ctx, `/spaces/${space.id}/change-requests/${cr.id}`) },
      body: ctx.store.read((tx) => presentChangeRequest(ctx, tx, cr, space.organization)),
    };
  },
  // API.md: a change request names the issues cluster it addresses (the pinned create body lacks it).
  { extraBodyFields: ['conversationsIssuesCluster'] },
);

export const getChangeRequestById = defineOperation('getChangeRequestById', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  return ctx.store.read((tx) => {
    const { space, cr } = service.readChangeRequest(tx, caller, path.spaceId, path.changeRequestId);
    return { status: 200, body: presentChangeRequest(ctx, tx, cr, space.organization) };
  });
});

export const listChangeRequestsForSpace = defineOperation('listChangeRequestsForSpace', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  return ctx.store.read((tx) => {
    const list = listForSpace(tx, caller, path.spaceId, query);
    const org = tx.get<{ id: string; organization: string }>('spaces', path.spaceId)!.organization;
    return { status: 200, body: paginate(list, query, (cr) => presentChangeRequest(ctx, tx, cr, org)) };
  });
});

export const updateChangeRequestById = defineOperation('updateChangeRequestById', async ({ ctx, caller, path, body }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const { space, cr } = await ctx.store.write((tx) => service.patchChangeRequest(tx, ctx, caller, path.spaceId, path.changeRequestId, body ?? {}));
  return { status: 200, body: ctx.store.read((tx) => presentChangeRequest(ctx, tx, cr, space.organization)) };
});

// Merge and update answer 200 either way, as the contract has it: `result` says which. A
// `conflicts` answer also lists them (`conflicts`: kind, page or file, title, path), which the
// contract's object leaves room for, so a client can say what clashed.
const answer = (out: { result: string; revision: string; conflicts?: unknown[] }) => ({
  status: 200,
  body: { revision: out.revision, result: out.result, ...(out.conflicts ? { conflicts: out.conflicts } : {}) },
});

export const mergeChangeRequest = defineOperation('mergeChangeRequest', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  return answer(await ctx.store.write((tx) => service.mergeChangeRequest(tx, ctx, caller, path.spaceId, path.changeRequestId)));
});

export const updateChangeRequest = defineOperation('updateChangeRequest', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  return answer(await ctx.store.write((tx) => service.updateChangeRequest(tx, ctx, caller, path.spaceId, path.changeRequestId)));
});
