import { readChangeRequest } from './change-requests/service.js';
import { contentRowId } from './content/model.js';
import { currentRevision, readRevision, treeOf } from './content/revisions.js';
import { flatten } from './content/tree.js';
import type { Caller, Context } from './kernel/context.js';
import { invalid } from './kernel/errors.js';
import { visibleSpace } from './spaces/service.js';
import { purgeIfExpired } from './space-expiry.js';
import { PageContents } from './content/tables.js';

// GET /_docs/page-sources?spaceId=S[&changeRequestId=C]: the files a docs-as-code push made
// pages from (`source` of its changes, kept byte for byte), for the pages whose body is still
// the one made from it. `docs content pull` writes them back as they were pushed; a page edited
// otherwise since has none here, and is written from its body. Whoever may read the pages (the
// same check as listPages / listPagesInChangeRequest) may read these.

export async function pageSourcesRoute(
  ctx: Context,
  caller: Caller,
  method: string,
  query: Record<string, unknown>,
): Promise<{ status: number; body: unknown }> {
  if (method !== 'GET') throw invalid(`${method} /_docs/page-sources: only GET`);
  const spaceId = query.spaceId;
  const crId = query.changeRequestId;
  if (typeof spaceId !== 'string' || !spaceId) throw invalid('spaceId: required');
  if (crId !== undefined && (typeof crId !== 'string' || !crId)) throw invalid('changeRequestId: a change request id or number');
  await purgeIfExpired(ctx, spaceId);
  return ctx.store.read((tx) => {
    const rev = crId
      ? readRevision(tx, spaceId, readChangeRequest(tx, caller, spaceId, crId).cr.revision)
      : currentRevision(tx, visibleSpace(tx, caller, spaceId).row);
    const sources: Record<string, string> = {};
    // Pages pushed from a file whose body was changed otherwise since (app, API, a merge).
    const stale: string[] = [];
    for (const { node } of flatten(treeOf(tx, rev))) {
      if (node.type !== 'document' || !node.source) continue;
      if (node.source.body !== node.content) {
        stale.push(node.id);
        continue;
      }
      const row = tx.get(PageContents, contentRowId(spaceId, node.source.text));
      if (row) sources[node.id] = row.markdown;
    }
    return { status: 200, body: { sources, stale } };
  });
}
