import { readChangeRequest } from '../change-requests/service.js';
import { markdownToDocument } from '../documents/markdown.js';
import type { Caller } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { defineOperation, type OperationRequest } from '../kernel/operation.js';
import { purgeIfExpired } from '../space-expiry.js';
import { visibleSpace } from '../spaces/service.js';
import type { ReadTx } from '../store/port.js';
import type { ContentRevision } from './model.js';
import { presentReusableContent } from './present.js';
import { currentRevision, readRevision } from './revisions.js';
import { reusableMarkdown, reusableOf } from './reusable.js';

// The reads of reusable content (docs/manual/reusable-content.md): a block of the space's current
// revision, of any revision by id, of a change request's revision, and a block's body as a
// Document. Blocks are written through change requests (insert_page `type: "reusable-content"`),
// so a read needs `read` on the space, like its pages.

type Where = { kind: 'current' } | { kind: 'revision'; revision: string } | { kind: 'changeRequest'; changeRequest: string };

function revisionOf(tx: ReadTx, caller: Caller, spaceId: string, where: Where): ContentRevision {
  if (where.kind === 'changeRequest') {
    const { cr } = readChangeRequest(tx, caller, spaceId, where.changeRequest);
    return readRevision(tx, spaceId, cr.revision);
  }
  const { row: space } = visibleSpace(tx, caller, spaceId);
  return where.kind === 'revision' ? readRevision(tx, space.id, where.revision) : currentRevision(tx, space);
}

function blockOf(tx: ReadTx, caller: Caller, spaceId: string, id: string, where: Where) {
  const rev = revisionOf(tx, caller, spaceId, where);
  const b = reusableOf(rev).find((x) => x.id === id);
  const place =
    where.kind === 'revision' ? `revision ${where.revision}` : where.kind === 'changeRequest' ? `change request ${where.changeRequest}` : `space ${spaceId}`;
  if (!b) throw notFound(`reusable content ${id} not found in ${place}`);
  return { rev, b };
}

const read =
  (where: (path: Record<string, string>) => Where) =>
  async ({ ctx, caller, path }: OperationRequest) => {
    await purgeIfExpired(ctx, path.spaceId);
    return ctx.store.read((tx) => ({ status: 200, body: presentReusableContent(blockOf(tx, caller, path.spaceId, path.reusableContentId, where(path)).b) }));
  };

export const getReusableContentById = defineOperation(
  'getReusableContentById',
  read(() => ({ kind: 'current' })),
);

export const getReusableContentInRevisionById = defineOperation(
  'getReusableContentInRevisionById',
  read((p) => ({ kind: 'revision', revision: p.revisionId! })),
);

export const getReusableContentInChangeRequestById = defineOperation(
  'getReusableContentInChangeRequestById',
  read((p) => ({ kind: 'changeRequest', changeRequest: p.changeRequestId! })),
);

/** The block's body as a Document (its inclusions are none: blocks hold no other block). */
export const getReusableContentDocumentInRevisionById = defineOperation('getReusableContentDocumentInRevisionById', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const markdown = await ctx.store.read((tx) => {
    const { rev, b } = blockOf(tx, caller, path.spaceId, path.reusableContentId, { kind: 'revision', revision: path.revisionId });
    return reusableMarkdown(tx, rev.space, b);
  });
  return { status: 200, body: await markdownToDocument(markdown) };
});
