import { loadParser } from '../content/link-refs.js';
import { operationSpec } from '../contract/spec.js';
import { validateInput } from '../contract/validate.js';
import { apiUrl } from '../kernel/context.js';
import { DocsError, invalid } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { purgeIfExpired } from '../space-expiry.js';
import { applyTemplateToChangeRequest } from './authoring.js';
import { listForSpace } from './filters.js';
import { presentChangeRequest } from './present.js';
import { findChangeRequest } from './lookup.js';
import * as service from './service.js';
import { Spaces } from '../spaces/tables.js';

export const createChangeRequest = defineOperation(
  'createChangeRequest',
  async ({ ctx, caller, path, body }) => {
    await purgeIfExpired(ctx, path.spaceId);
    const input = checkCreateExtras(path.spaceId, body ?? {});
    // A template fills the change request's first revision (the markdown parser loads on demand).
    const parse = input.template ? await loadParser() : undefined;
    const { space, cr } = await ctx.store.write((tx) => {
      const made = service.createChangeRequest(tx, ctx, caller, path.spaceId, input);
      if (!input.template) return made;
      applyTemplateToChangeRequest(tx, ctx, caller, path.spaceId, made.cr.id, input.template, parse!);
      return { space: made.space, cr: findChangeRequest(tx, path.spaceId, made.cr.id) };
    });
    return {
      status: 201,
      headers: { Location: apiUrl(ctx, `/spaces/${space.id}/change-requests/${cr.id}`) },
      body: await ctx.store.read((tx) => presentChangeRequest(ctx, tx, cr, space.organization)),
    };
  },
  // API.md: the create body takes `subject`, `template` (`id`, `params.contentRefs`) and "other
  // properties allowed"; the issue adds `description` (a Document) and the issues cluster. The
  // pinned 0.146.0 body has only `subject` and `agentTaskId`, so the body is open here ('*').
  { extraBodyFields: ['*'] },
);

/**
 * `description` and `template` checked against the schemas of the operations that take them
 * already (PATCH for the Document, apply-template for the template), so they mean the same
 * here; other properties are allowed by API.md and ignored.
 */
function checkCreateExtras(spaceId: string, body: Record<string, any>): service.CreateInput {
  const { subject, description, template, conversationsIssuesCluster } = body;
  if (conversationsIssuesCluster !== undefined && typeof conversationsIssuesCluster !== 'string')
    throw invalid('body.conversationsIssuesCluster: must be string');
  if (description !== undefined) validateInput(operationSpec('updateChangeRequestById'), { path: { spaceId, changeRequestId: '1' }, body: { description } });
  if (template !== undefined) {
    try {
      validateInput(operationSpec('applyTemplateToSpace'), { path: { spaceId }, body: template });
    } catch (e) {
      if (e instanceof DocsError) throw invalid(e.message.replace(/^body/, 'body.template'));
      throw e;
    }
  }
  return { subject, description, template, conversationsIssuesCluster };
}

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
    const org = tx.get(Spaces, path.spaceId)!.organization;
    return { status: 200, body: paginate(list, query, (cr) => presentChangeRequest(ctx, tx, cr, org)) };
  });
});

export const updateChangeRequestById = defineOperation('updateChangeRequestById', async ({ ctx, caller, path, body }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const { space, cr } = await ctx.store.write((tx) => service.patchChangeRequest(tx, ctx, caller, path.spaceId, path.changeRequestId, body ?? {}));
  return { status: 200, body: await ctx.store.read((tx) => presentChangeRequest(ctx, tx, cr, space.organization)) };
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
