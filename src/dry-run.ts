import { readRevision } from './content/revisions.js';
import { diffRevisions } from './change-requests/changes.js';
import type { Caller, Context } from './kernel/context.js';
import { invalid } from './kernel/errors.js';
import { invoke } from './invoke.js';
import type { SpaceRecord } from './spaces/model.js';
import { overlayStore } from './store/overlay.js';

// POST /_docs/dry-run {operationId, path}: runs the operation as it would run (the same
// checks, permissions, conflicts and answer) on a store whose writes stay in memory and are
// dropped (store/overlay.ts), and adds what the caller needs to see what would change. Only
// operations whose whole effect is in the store are allowed (no files, no background work).

const ALLOWED = new Set(['publishSite', 'mergeChangeRequest']);

export async function dryRunRoute(ctx: Context, caller: Caller, body: any): Promise<{ status: number; body: unknown }> {
  const operationId = body?.operationId;
  if (typeof operationId !== 'string' || !ALLOWED.has(operationId)) throw invalid(`operationId: dry runs are for ${[...ALLOWED].join(', ')}`);
  const path = body.path && typeof body.path === 'object' ? body.path : {};
  const dry: Context = { ...ctx, store: overlayStore(ctx.store) };
  const before = operationId === 'mergeChangeRequest' ? await ctx.store.read((tx) => tx.get<SpaceRecord>('spaces', String(path.spaceId))?.revision) : undefined;
  const r = await invoke(dry, operationId, { path }, caller);
  if (r.status >= 400) throw r.error ?? invalid(`${operationId}: HTTP ${r.status}`);
  const extra: Record<string, unknown> = {};
  if (operationId === 'mergeChangeRequest' && (r.body as any).result === 'merge' && before) {
    // The pages the merge would add, change and delete in the space.
    extra.changes = await dry.store.read((tx) => {
      const space = tx.get<SpaceRecord>('spaces', String(path.spaceId))!;
      return diffRevisions(dry, tx, space, readRevision(tx, space.id, before), readRevision(tx, space.id, (r.body as any).revision));
    });
  }
  if (operationId === 'publishSite') {
    const s = await invoke(dry, 'getSiteStructure', { path }, caller);
    if (s.status < 400) extra.structure = s.body;
  }
  return { status: 200, body: { dryRun: true, operationId, status: r.status, result: r.body, ...extra } };
}
