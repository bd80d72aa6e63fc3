import { expect } from 'vitest';
import { closeIndexes } from '../../src/search/indexes.js';
import { openAsOwner } from './owner-store.js';

/**
 * Makes `dir` a data directory whose owner's organization has an index file: one space ("Herons",
 * one page) searched once, everything closed after. `token` is the owner's (as `openAsOwner`).
 */
export async function storeWithIndex(dir: string, token = 'gb_api_search_early_test'): Promise<{ org: string; space: string }> {
  const { ctx, call, org } = await openAsOwner(dir, token);
  const space = (await call('createSpace', { path: { organizationId: org }, body: { title: 'Herons' } })).id;
  const cr = (await call('createChangeRequest', { path: { spaceId: space }, body: { subject: 'Write' } })).id;
  const changes = [{ operation: 'insert_page', title: 'Herons', document: { markdown: 'Herons nest in trees.' } }];
  await call('updateChangeRequestContent', { path: { spaceId: space, changeRequestId: cr }, query: { compat: false }, body: { changes } });
  await call('mergeChangeRequest', { path: { spaceId: space, changeRequestId: cr } });
  expect((await call('searchOrganizationContent', { path: { organizationId: org }, query: { query: 'herons' } })).count).toBe(1);
  await closeIndexes(ctx);
  await ctx.store.close();
  return { org, space };
}
