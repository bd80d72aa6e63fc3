import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { presentTranslation } from './present.js';
import { kickTranslationRuns } from './runner.js';
import {
  createTranslation as create,
  deleteTranslation as remove,
  getTranslation as get,
  listTranslations as list,
  requestRun,
  updateInstructions,
} from './service.js';

export const listTranslations = defineOperation('listTranslations', async ({ ctx, caller, path, query }) => {
  const { list: items, member } = await ctx.store.read((tx) => list(tx, path.organizationId, caller));
  return { status: 200, body: paginate(items, query, (t) => presentTranslation(ctx, t, member.role)) };
});

export const createTranslation = defineOperation('createTranslation', async ({ ctx, caller, path, body }) => {
  const { t, member } = await ctx.store.write((tx) => create(tx, ctx, path.organizationId, caller, body));
  return { status: 201, body: presentTranslation(ctx, t, member.role) };
});

export const getTranslation = defineOperation('getTranslation', async ({ ctx, caller, path }) => {
  const { t, member } = await ctx.store.read((tx) => get(tx, path.organizationId, caller, path.translationId));
  return { status: 200, body: presentTranslation(ctx, t, member.role) };
});

export const updateTranslation = defineOperation('updateTranslation', async ({ ctx, caller, path, body }) => {
  const { t, member } = await ctx.store.write((tx) => updateInstructions(tx, ctx, path.organizationId, caller, path.translationId, body.instructions));
  return { status: 200, body: presentTranslation(ctx, t, member.role) };
});

export const deleteTranslation = defineOperation('deleteTranslation', async ({ ctx, caller, path }) => {
  const deleted = await ctx.store.write((tx) => remove(tx, path.organizationId, caller, path.translationId));
  return { status: deleted ? 205 : 204 };
});

export const runTranslation = defineOperation('runTranslation', async ({ ctx, caller, path }) => {
  await ctx.store.write((tx) => requestRun(tx, ctx, path.organizationId, caller, path.translationId));
  kickTranslationRuns(ctx);
  return { status: 204 };
});
