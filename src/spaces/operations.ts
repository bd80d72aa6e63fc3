import { apiUrl, type Context } from '../kernel/context.js';
import { defineOperation } from '../kernel/operation.js';
import type { MemberRole } from '../kernel/roles.js';
import { spaceCounts } from './counts.js';
import type { SpaceRecord } from './model.js';
import { presentSpace } from './present.js';
import { presentSpacesPage } from './present-page.js';
import * as relocate from './relocate.js';
import { dueForPurge, purgeIfExpired, purgingIfExpired } from '../space-expiry.js';
import * as service from './service.js';
import type { ReadTx } from '../store/port.js';

/** The Space object with its counts as they are now (read after the write that changed it). */
const show = async (ctx: Context, x: { row: SpaceRecord; level: MemberRole }, shareKey?: string) =>
  presentSpace(ctx, x.row, x.level, await ctx.store.read((tx) => spaceCounts(tx, x.row.id)), shareKey);

export const listSpacesInOrganizationById = defineOperation('listSpacesInOrganizationById', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const list = service.listSpaces(tx, caller, path.organizationId);
    return { status: 200, body: presentSpacesPage(ctx, tx, list, query) };
  }),
);

export const createSpace = defineOperation('createSpace', async ({ ctx, caller, path, body }) => {
  const created = await ctx.store.write((tx) => service.createSpace(tx, ctx, caller, path.organizationId, body ?? {}));
  return { status: 201, headers: { Location: apiUrl(ctx, `/spaces/${created.row.id}`) }, body: await show(ctx, created) };
});

// Every operation on one space first purges it if it was deleted more than 7 days ago: past
// its retention a space is gone, whether or not the server's sweeper got to it yet.

// The most frequent read: the purge check is the cheap one (no write unless the space is deleted).
// The most frequent read of a space: the expiry check, the space and its counts in one read (three
// before: reads at 32 connections spend ~1 µs of every request's ~22 µs per read transaction).
export const getSpaceById = defineOperation(
  'getSpaceById',
  async ({ ctx, caller, path, query }) => {
    const read = (tx: ReadTx) => {
      const seen = service.visibleSpace(tx, caller, path.spaceId);
      return { seen, counts: spaceCounts(tx, seen.row.id) };
    };
    let got = await ctx.store.read((tx) => (dueForPurge(tx, ctx, path.spaceId) ? undefined : read(tx)));
    if (!got) {
      await purgingIfExpired(ctx, path.spaceId);
      got = await ctx.store.read(read);
    }
    return { status: 200, body: presentSpace(ctx, got.seen.row, got.seen.level, got.counts, query.shareKey) };
    // A space that is not deleted draws no clock (dueForPurge is false whatever the time), and a
    // deleted one is 404: the 200 answer is the rows', the caller's and the path's and shareKey's.
  },
  { keepsAnswer: true },
);

export const updateSpaceById = defineOperation('updateSpaceById', async ({ ctx, caller, path, body }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const updated = await ctx.store.write((tx) => service.updateSpace(tx, ctx, caller, path.spaceId, body));
  return { status: 200, body: await show(ctx, updated) };
});

export const deleteSpaceById = defineOperation('deleteSpaceById', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const deleted = await ctx.store.write((tx) => service.deleteSpace(tx, ctx, caller, path.spaceId));
  return { status: deleted ? 205 : 204 };
});

export const restoreSpace = defineOperation('restoreSpace', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const restored = await ctx.store.write((tx) => service.restoreSpace(tx, ctx, caller, path.spaceId));
  return { status: 200, body: await show(ctx, restored) };
});

export const duplicateSpace = defineOperation('duplicateSpace', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const copy = await ctx.store.write((tx) => relocate.duplicateSpace(tx, ctx, caller, path.spaceId));
  return { status: 201, headers: { Location: apiUrl(ctx, `/spaces/${copy.row.id}`) }, body: await show(ctx, copy) };
});

export const moveSpace = defineOperation('moveSpace', async ({ ctx, caller, path, body }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const moved = await ctx.store.write((tx) => relocate.moveSpace(tx, ctx, caller, path.spaceId, body));
  return { status: 200, body: await show(ctx, moved) };
});

export const transferSpace = defineOperation('transferSpace', async ({ ctx, caller, path, body }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const moved = await ctx.store.write((tx) => relocate.transferSpace(tx, ctx, caller, path.spaceId, body.organization));
  return { status: 200, body: await show(ctx, moved) };
});
