import { readRevision } from './content/revisions.js';
import { diffRevisions } from './change-requests/changes.js';
import type { Caller, Context } from './kernel/context.js';
import { invalid } from './kernel/errors.js';
import { invoke } from './invoke.js';
import { overlayStore } from './store/overlay.js';
import { Spaces } from './spaces/tables.js';

// POST /_docs/dry-run {operationId, path}: runs the operation as it would run (the same
// checks, permissions, conflicts and answer) on a store whose writes stay in memory and are
// dropped (store/overlay.ts), and adds what the caller needs to see what would change. Only
// operations whose whole effect is in the store are allowed (no files, no background work).

const ALLOWED = new Set(['publishSite', 'mergeChangeRequest']);

export async function dryRunRoute(ctx: Context, caller: Caller, body: any): Promise<{ status: number; body: unknown }> {
  if (body?.operationId === 'contentPush') return contentPush(ctx, caller, body);
  const operationId = body?.operationId;
  if (typeof operationId !== 'string' || !ALLOWED.has(operationId)) throw invalid(`operationId: dry runs are for ${[...ALLOWED].join(', ')}, contentPush`);
  const path = body.path && typeof body.path === 'object' ? body.path : {};
  const dry: Context = { ...ctx, store: overlayStore(ctx.store) };
  const before = operationId === 'mergeChangeRequest' ? await ctx.store.read((tx) => tx.get(Spaces, String(path.spaceId))?.revision) : undefined;
  const r = await invoke(dry, operationId, { path }, caller);
  if (r.status >= 400) throw r.error ?? invalid(`${operationId}: HTTP ${r.status}`);
  const extra: Record<string, unknown> = {};
  if (operationId === 'mergeChangeRequest' && (r.body as any).result === 'merge' && before) {
    // The pages the merge would add, change and delete in the space.
    extra.changes = await dry.store.read((tx) => {
      const space = tx.get(Spaces, String(path.spaceId))!;
      return diffRevisions(dry, tx, space, readRevision(tx, space.id, before), readRevision(tx, space.id, (r.body as any).revision));
    });
  }
  if (operationId === 'publishSite') {
    const s = await invoke(dry, 'getSiteStructure', { path }, caller);
    if (s.status < 400) extra.structure = s.body;
  }
  return { status: 200, body: { dryRun: true, operationId, status: r.status, result: r.body, ...extra } };
}

/**
 * `docs content push --dry-run`: {operationId: "contentPush", path: {spaceId, changeRequestId?},
 * subject, batches, merge}. The push's own calls, in order, on the dropped store: the change
 * request is opened (unless given), each batch of content changes applied (the same checks: a
 * refused change is the push's error), and with `merge` the change request merged (its conflicts,
 * as the real push would meet them). Files are not uploaded (insert_files changes are left out:
 * their bytes would be written beside the store); links to them stay as written meanwhile. A
 * page inserted by an earlier batch is named by its `ref` in a later one (`into`, `page`, `target.page`), as the
 * CLI names it by the id the server gave it.
 */
async function contentPush(ctx: Context, caller: Caller, body: any): Promise<{ status: number; body: unknown }> {
  const path = body.path && typeof body.path === 'object' ? body.path : {};
  if (typeof path.spaceId !== 'string') throw invalid('path.spaceId: required');
  if (!Array.isArray(body.batches) || body.batches.some((b: unknown) => !Array.isArray(b))) throw invalid('batches: a list of lists of content changes');
  const dry: Context = { ...ctx, store: overlayStore(ctx.store) };
  const must = async (operationId: string, input: any) => {
    const r = await invoke(dry, operationId, input, caller);
    if (r.status >= 400) throw r.error ?? invalid(`${operationId}: HTTP ${r.status}`);
    return r.body as any;
  };
  let changeRequestId: string = path.changeRequestId;
  let number: number | undefined;
  if (typeof changeRequestId !== 'string') {
    const cr = await must('createChangeRequest', {
      path: { spaceId: path.spaceId },
      body: { subject: typeof body.subject === 'string' ? body.subject : 'Push' },
    });
    changeRequestId = cr.id;
    number = cr.number;
  }
  const refs = new Map<string, string>();
  const swap = (v: unknown) => (typeof v === 'string' && refs.has(v) ? refs.get(v) : v);
  for (const batch of body.batches as any[][]) {
    const changes = batch
      .filter((c) => c?.operation !== 'insert_files')
      .map((c) => ({
        ...c,
        ...(c.into !== undefined ? { into: swap(c.into) } : {}),
        ...(c.page !== undefined ? { page: swap(c.page) } : {}),
        ...(c.target?.page !== undefined ? { target: { ...c.target, page: swap(c.target.page) } } : {}),
      }));
    if (!changes.length) continue;
    const res = await must('updateChangeRequestContent', { path: { spaceId: path.spaceId, changeRequestId }, query: { compat: false }, body: { changes } });
    for (const o of res.changes ?? []) if (o.object === 'created_page' && o.ref) refs.set(o.ref, o.page.id);
  }
  const merge = body.merge ? await must('mergeChangeRequest', { path: { spaceId: path.spaceId, changeRequestId } }) : undefined;
  return { status: 200, body: { dryRun: true, operationId: 'contentPush', ...(number !== undefined ? { number } : {}), ...(merge ? { merge } : {}) } };
}
