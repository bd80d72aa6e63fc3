import { DocsError } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { presentImportRun } from './present.js';
import { abortImportRun, kickImportRuns } from './runner.js';
import { cancelRun, checkStart, checkWebsiteUrl, createRun, fileKeys, filesOfSources, listRuns, readKeys, visibleRun } from './service.js';

// Import runs (docs/manual/imports-and-git.md#import-runs).

export const startImportRun = defineOperation('startImportRun', async ({ ctx, caller, path, body }) => {
  // `site` is not in either spec's body (an extra field the handler checks itself).
  const site = (body as { site?: unknown }).site;
  if (site !== undefined && typeof site !== 'string') throw new DocsError('invalid', 'site: must be a site id');
  const input = { source: body.source, target: body.target, ...(typeof site === 'string' ? { site } : {}) };
  // Everything that can be refused is refused here, before a run exists: rights and target, the
  // file keys and their archives (opened and checked whole: unsafe entries, bounds), the URL.
  const keys = await ctx.store.read((tx) => {
    checkStart(tx, caller, path.organizationId, input);
    return input.source.type === 'file' ? fileKeys(tx, input.target, input.source.files) : [];
  });
  if (input.source.type === 'file') await filesOfSources(await readKeys(ctx, keys));
  else await checkWebsiteUrl(input.source.url);
  const run = await ctx.store.write((tx) => createRun(tx, ctx, caller, path.organizationId, input));
  kickImportRuns(ctx);
  return { status: 201, body: presentImportRun(ctx, run) };
});

export const listImportRuns = defineOperation('listImportRuns', async ({ ctx, caller, path, query }) => {
  const runs = await ctx.store.read((tx) => listRuns(tx, caller, path.organizationId, query as any));
  return { status: 200, body: paginate(runs, query, (r) => presentImportRun(ctx, r)) };
});

export const getImportRun = defineOperation('getImportRun', async ({ ctx, caller, path }) => {
  const run = await ctx.store.read((tx) => visibleRun(tx, caller, path.organizationId, path.importRunId));
  return { status: 200, body: presentImportRun(ctx, run) };
});

// 0.146.0 says 201, 0.202.0 says 200: 0.202.0 wins (docs/manual/contract.md).
export const cancelImportRun = defineOperation('cancelImportRun', async ({ ctx, caller, path }) => {
  const run = await ctx.store.write((tx) => cancelRun(tx, ctx, caller, path.organizationId, path.importRunId));
  abortImportRun(ctx, run.id);
  return { status: 200, body: presentImportRun(ctx, run) };
});
