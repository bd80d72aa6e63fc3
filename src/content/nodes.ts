import type { ReadTx } from '../store/port.js';
import { contentRowId, type PageNodeRecord } from './model.js';
import { LegacyPageNodes, PageNodes } from './tables.js';

// Page nodes are kept in the space's node group (`space/<id>/n`, src/store/tables.ts), apart
// from the bodies, so reading a page tree loads no body. Stores written before kept them among
// the bodies (`pageNodes` in `space/<id>/c`): a node not in the node group is looked for there,
// which costs what every tree read cost before, and only for trees written before. Writers put
// nodes in the node group only (revisions.ts putTree copies a tree read from the old place), so
// after its first write a space's current tree is read from the node group alone. Old rows are
// never moved nor deleted but with their space: a node once found stays found.

/** Whether a node was read from the old place (`pageNodes` among the bodies). */
export interface FoundNode {
  row: PageNodeRecord;
  legacy: boolean;
}

/** The node of `hash` in `space`, wherever it is kept; undefined when it exists nowhere. */
export function findNode(tx: ReadTx, space: string, hash: string): FoundNode | undefined {
  const id = contentRowId(space, hash);
  const row = tx.get(PageNodes, id);
  if (row) return { row, legacy: false };
  // Not found because the node group is not loaded yet: the read runs again once it is.
  if (tx.settled?.() === false) return undefined;
  const old = tx.get(LegacyPageNodes, id);
  return old ? { row: old, legacy: true } : undefined;
}

/** The node row of `hash` in `space` (see findNode). */
export const nodeRow = (tx: ReadTx, space: string, hash: string): PageNodeRecord | undefined => findNode(tx, space, hash)?.row;
