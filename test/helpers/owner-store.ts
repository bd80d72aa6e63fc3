import { rmSync } from 'node:fs';
import { bootstrap, ownerOf } from '../../src/auth/bootstrap.js';
import { invoke } from '../../src/invoke.js';
import type { Caller, Context } from '../../src/kernel/context.js';
import { openContext } from '../../src/open.js';
import { closeIndexes } from '../../src/search/indexes.js';
import { stopSearchIndexer } from '../../src/search/indexer.js';

/** An operation called as the store's owner, in process: its body, or an error naming the status. */
export type OwnerCall = (op: string, input: object) => Promise<any>;

/** A data directory opened in process, with its owner bootstrapped (`token`) and the owner's organization. */
export async function openAsOwner(dir: string, token: string): Promise<{ ctx: Context; call: OwnerCall; org: string; caller: Caller }> {
  const ctx = await openContext(dir);
  await bootstrap(ctx, token);
  const caller: Caller = { userId: (await ownerOf(ctx))! };
  const call: OwnerCall = async (op, input) => {
    const r = await invoke(ctx, op, input, caller);
    if (r.status >= 400) throw new Error(`${op}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const org = (await call('listOrganizationsForAuthenticatedUser', {})).items[0].id;
  return { ctx, call, org, caller };
}

/** Closes what `openAsOwner` opened: the search indexer (when started), the indexes, the store; then removes `dir`. */
export async function closeOwnerStore(ctx: Context, dir: string): Promise<void> {
  await stopSearchIndexer(ctx);
  await closeIndexes(ctx);
  await ctx.store.close();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * A new space of the organization `org` holding the pages `changes` make (insert_page and the
 * like), sent in a change request 50 at a time and merged: its id.
 */
export async function spaceWithPages(call: OwnerCall, org: string, title: string, changes: readonly object[]): Promise<string> {
  const id = (await call('createSpace', { path: { organizationId: org }, body: { title } })).id;
  const cr = (await call('createChangeRequest', { path: { spaceId: id }, body: { subject: 'Write' } })).id;
  for (let at = 0; at < changes.length; at += 50)
    await call('updateChangeRequestContent', {
      path: { spaceId: id, changeRequestId: cr },
      query: { compat: false },
      body: { changes: changes.slice(at, at + 50) },
    });
  await call('mergeChangeRequest', { path: { spaceId: id, changeRequestId: cr } });
  return id;
}
