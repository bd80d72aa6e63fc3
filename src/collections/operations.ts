import { apiUrl } from '../kernel/context.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { presentSpacesPage } from '../spaces/present-page.js';
import { presentCollection } from './present.js';
import * as service from './service.js';

export const listCollectionsInOrganizationById = defineOperation('listCollectionsInOrganizationById', async ({ ctx, caller, path, query }) => {
  const list = await ctx.store.read((tx) => service.listCollections(tx, caller, path.organizationId, query.nested !== false));
  return { status: 200, body: paginate(list, query, (x) => presentCollection(ctx, x.row, x.level)) };
});

export const createCollection = defineOperation('createCollection', async ({ ctx, caller, path, body }) => {
  const { row, level } = await ctx.store.write((tx) => service.createCollection(tx, ctx, caller, path.organizationId, body ?? {}));
  return { status: 201, headers: { Location: apiUrl(ctx, `/collections/${row.id}`) }, body: presentCollection(ctx, row, level) };
});

export const getCollectionById = defineOperation('getCollectionById', async ({ ctx, caller, path }) => {
  const { row, level } = await ctx.store.read((tx) => service.visibleCollection(tx, caller, path.collectionId));
  return { status: 200, body: presentCollection(ctx, row, level) };
});

export const updateCollectionById = defineOperation('updateCollectionById', async ({ ctx, caller, path, body }) => {
  const { row, level } = await ctx.store.write((tx) => service.updateCollection(tx, ctx, caller, path.collectionId, body));
  return { status: 200, body: presentCollection(ctx, row, level) };
});

export const deleteCollectionById = defineOperation('deleteCollectionById', async ({ ctx, caller, path }) => {
  const deleted = await ctx.store.write((tx) => service.deleteCollection(tx, ctx, caller, path.collectionId));
  return { status: deleted ? 205 : 204 };
});

export const listSpacesInCollectionById = defineOperation('listSpacesInCollectionById', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const list = service.listSpacesOf(tx, caller, path.collectionId);
    return { status: 200, body: presentSpacesPage(ctx, tx, list, query) };
  }),
);

export const moveCollection = defineOperation('moveCollection', async ({ ctx, caller, path, body }) => {
  const { row, level } = await ctx.store.write((tx) => service.moveCollection(tx, ctx, caller, path.collectionId, body));
  return { status: 200, body: presentCollection(ctx, row, level) };
});

export const transferCollection = defineOperation('transferCollection', async ({ ctx, caller, path, body }) => {
  const { row, level } = await ctx.store.write((tx) => service.transferCollection(tx, ctx, caller, path.collectionId, body.organization));
  return { status: 200, body: presentCollection(ctx, row, level) };
});
