import type { Caller, Context } from '../kernel/context.js';
import { newId } from '../kernel/ids.js';
import type { WriteTx } from '../store/port.js';
import { requireCreateIn } from '../tree/access.js';
import { atRootVisibility, moveItem, type MoveInput } from '../tree/move.js';
import { endPosition, siblings, writeOrder } from '../tree/order.js';
import { checkTransfer, requireTransferable } from '../tree/transfer.js';
import { dropGrantsOn } from '../tree/grants.js';
import { copySpaceContent } from './content-rows.js';
import { SPACE_TITLE_MAX, type SpaceRecord } from './model.js';
import { visibleSpace } from './service.js';
import { Spaces } from './tables.js';

const COPY_MARK = ' (copy)';

/** "Guide" -> "Guide (copy)", cut so that the mark always shows within the title limit. */
export function copyTitle(title: string): string {
  return title.slice(0, SPACE_TITLE_MAX - COPY_MARK.length).trimEnd() + COPY_MARK;
}

/**
 * Copies a space with its current content (every row of its shard, with new ids) into the same
 * parent, right after the original. Needs to see the space and to create content where it is.
 */
export function duplicateSpace(tx: WriteTx, ctx: Context, caller: Caller, id: string) {
  const { row, access } = visibleSpace(tx, caller, id);
  requireCreateIn(access, row.parent, `duplicating space ${id}`);
  const now = ctx.clock.now().toISOString();
  const copyId = newId();
  const ids = copySpaceContent(tx, id, copyId);
  const copy: SpaceRecord = {
    ...row,
    id: copyId,
    title: copyTitle(row.title),
    revision: ids.get(row.revision) ?? row.revision,
    createdAt: now,
    updatedAt: now,
    createdBy: caller.userId,
  };
  const order = siblings(tx, row.organization, row.parent, 'space');
  const item = { kind: 'space' as const, row: copy };
  order.splice(order.findIndex((i) => i.kind === 'space' && i.row.id === id) + 1, 0, item);
  writeOrder(tx, order, item);
  const stored = tx.get(Spaces, copyId)!;
  return { row: stored, level: access.space(stored) };
}

export function moveSpace(tx: WriteTx, ctx: Context, caller: Caller, id: string, input: MoveInput) {
  const { row, access } = visibleSpace(tx, caller, id);
  const moved = moveItem(tx, access, { kind: 'space', row }, input, ctx.clock.now().toISOString());
  const stored = tx.get(Spaces, moved.row.id)!;
  return { row: stored, level: access.renewed().space(stored) };
}

/** Moves a space (its content shard stays as it is) to the end of another organization's root. */
export function transferSpace(tx: WriteTx, ctx: Context, caller: Caller, id: string, organization: string) {
  const { row, access } = visibleSpace(tx, caller, id);
  const target = checkTransfer(tx, caller, access, organization, `space ${id}`);
  requireTransferable(tx, [row], organization, `space ${id}`);
  // Grants name people and teams of the organization it leaves: they do not follow it (nor
  // come back if it ever returns).
  dropGrantsOn(tx, row.organization, 'space', row.id);
  const moved = tx.put(Spaces, {
    ...row,
    organization,
    parent: null,
    visibility: atRootVisibility(row, null),
    position: endPosition(tx, organization, null, 'space'),
    updatedAt: ctx.clock.now().toISOString(),
  });
  return { row: moved, level: target.space(moved) };
}
