import type { WriteTx } from '../store/port.js';
import { contentRowId, type NavFields, type NavKid, type PageNode } from './model.js';
import { PageNavs } from './tables.js';

// Navigation rows (PageNavRecord): written with the nodes of a tree (revisions.ts putTree), one
// per new node with subpages and one per root node, listing the subpages as navigation shows
// them. Node rows name their children by hash only, so finding a page by path from them reads
// every sibling's row on the way; a navigation row is one row per level. Stores written before
// have none for their trees: readers then use the whole tree (src/urls/site/page-nav.ts).

/** The fields navigation shows of a page. */
export function navFields(p: PageNode): NavFields {
  const out: NavFields = { id: p.id, type: p.type, title: p.title, slug: p.slug };
  if (p.emoji !== undefined) out.emoji = p.emoji;
  if (p.hidden !== undefined) out.hidden = p.hidden;
  if (p.condition !== undefined) out.condition = p.condition;
  if (p.href !== undefined) out.href = p.href;
  if (p.target !== undefined) out.target = p.target;
  return out;
}

// Pages below a node and whether one of them has a condition, by node object (nodes of a
// revision are immutable and shared: an edit copies what it changes, so only those are counted).
interface Below {
  count: number;
  cond: boolean;
  hidden: boolean;
}
const below = new WeakMap<PageNode, Below>();

function aggregate(p: PageNode): Below {
  let hit = below.get(p);
  if (!hit) {
    hit = aggregateOf(p.pages);
    below.set(p, hit);
  }
  return hit;
}

function aggregateOf(pages: readonly PageNode[]): Below {
  let count = pages.length;
  let cond = false;
  let hidden = false;
  for (const k of pages) {
    const a = aggregate(k);
    count += a.count;
    cond ||= a.cond || k.condition !== undefined;
    hidden ||= a.hidden || !!k.hidden;
  }
  return { count, cond, hidden };
}

const kid = (p: PageNode, h: string): NavKid => {
  const a = aggregate(p);
  return { h, n: p.pages.length, ...(a.cond ? { c: 1 as const } : {}), node: navFields(p) };
};

/**
 * Writes the navigation row of node `hash` whose subpages are `pages` (hashes `hashes`): call it
 * when the node's row is new. Not looked up first (a lookup would load the group's segments in
 * the writer's run): a row that exists is not added again (the commit checks, as for any
 * content-addressed row).
 */
export function putNav(tx: WriteTx, space: string, hash: string, pages: readonly PageNode[], hashes: readonly string[]): void {
  if (!pages.length) return;
  const id = contentRowId(space, hash);
  const all = aggregateOf(pages);
  tx.put(PageNavs, {
    id,
    space,
    kids: pages.map((p, i) => kid(p, hashes[i]!)),
    count: all.count,
    ...(all.hidden ? { hidden: 1 as const } : {}),
    ...(all.cond ? { conditional: 1 as const } : {}),
  });
}
