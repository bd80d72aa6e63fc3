import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { getEntry, listEntries, presentEntry, updateEntries } from './glossary.js';
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

// The translation glossary (docs/manual/translations.md#glossary).
export const listGlossaryEntries = defineOperation('listGlossaryEntries', async ({ ctx, caller, path, query }) => {
  const entries = await ctx.store.read((tx) => listEntries(tx, path.organizationId, caller));
  // 0.202.0's orderBy: by the term in that language (entries without it last).
  const lang = typeof (query as any).orderBy === 'string' ? String((query as any).orderBy).toLowerCase() : undefined;
  const sorted = lang
    ? [...entries].sort((a, b) => {
        const x = a.translations[lang];
        const y = b.translations[lang];
        return x === undefined ? (y === undefined ? 0 : 1) : y === undefined ? -1 : x.localeCompare(y);
      })
    : entries;
  return { status: 200, body: paginate(sorted, query, (e) => presentEntry(ctx, e)) };
});

export const updateGlossaryEntries = defineOperation('updateGlossaryEntries', async ({ ctx, caller, path, body }) => {
  await ctx.store.write((tx) => updateEntries(tx, ctx, path.organizationId, caller, body.operations as any));
  return { status: 204 };
});

export const getGlossaryEntry = defineOperation('getGlossaryEntry', async ({ ctx, caller, path }) => {
  const e = await ctx.store.read((tx) => getEntry(tx, path.organizationId, caller, path.glossaryEntryId));
  return { status: 200, body: presentEntry(ctx, e) };
});
