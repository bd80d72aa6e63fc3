import type { Caller, Context } from '../kernel/context.js';
import type { WriteTx } from '../store/port.js';
import { requireContentEdit } from '../spaces/service.js';
import { runBatch, type UploadedFile } from '../content/authoring.js';
import type { Parse } from '../content/link-refs.js';
import { commitRevision } from '../content/revisions.js';
import { templateChanges } from '../content/templates.js';
import { findChangeRequest, requireWritable } from './lookup.js';
import { baseOf } from './model.js';
import { ChangeRequests } from './tables.js';

// Content written into a change request: a batch of changes (updateChangeRequestContent) or a
// template's pages (applyTemplateToSpace with a changeRequestId, createChangeRequest with a
// template). The batch is content's (content/authoring.ts, runBatch); what a change request
// adds is finding it, refusing a merged or archived one, and moving it to the new revision.
// Here, above content/, so content never imports change-requests/ (ARCHITECTURE.md).

function writeBatch(
  tx: WriteTx,
  ctx: Context,
  caller: Caller,
  spaceId: string,
  crId: string,
  changes: any[],
  uploads: Map<number, UploadedFile[]>,
  parse: Parse,
  internal: boolean,
) {
  const cr = findChangeRequest(tx, spaceId, crId);
  requireWritable(cr);
  const res = runBatch(tx, ctx, spaceId, cr.revision, baseOf(cr), changes, uploads, parse, internal);
  const rev = commitRevision(tx, ctx, spaceId, [cr.revision], {
    pages: res.pages,
    files: res.files,
    reusable: res.reusable,
    author: caller.userId,
    changeRequest: cr.id,
  });
  const updated = tx.put(ChangeRequests, { ...cr, revision: rev.id, updatedAt: ctx.clock.now().toISOString() });
  return { cr: updated, res };
}

export function applyChanges(
  tx: WriteTx,
  ctx: Context,
  caller: Caller,
  spaceId: string,
  crId: string,
  changes: any[],
  uploads: Map<number, UploadedFile[]>,
  parse: Parse,
) {
  requireContentEdit(tx, caller, spaceId);
  const { cr, res } = writeBatch(tx, ctx, caller, spaceId, crId, changes, uploads, parse, false);
  return { cr, outcomes: res.outcomes, inserted: res.inserted };
}

/** A template's pages into a change request; taken slugs get a number. */
export function applyTemplateToChangeRequest(
  tx: WriteTx,
  ctx: Context,
  caller: Caller,
  spaceId: string,
  crId: string,
  body: { id: string; params?: { contentRefs?: Record<string, unknown> } },
  parse: Parse,
): void {
  requireContentEdit(tx, caller, spaceId);
  writeBatch(tx, ctx, caller, spaceId, crId, templateChanges(body), new Map(), parse, true);
}
