import { contentRowId, type NavKid, type PageNavRecord, type PageNode } from '../../content/model.js';
import { nodeRow } from '../../content/nodes.js';
import { currentRevision, putMissingNavs } from '../../content/revisions.js';
import type { Context } from '../../kernel/context.js';
import { PageNavs } from '../../content/tables.js';
import type { Located } from '../../content/tree.js';
import type { SpaceRecord } from '../../spaces/model.js';
import type { ReadTx } from '../../store/port.js';
import { hasSpecs } from './api-load.js';
import { satisfies } from './conditions.js';
import type { PageIndexed } from './pages.js';
import type { Visitor } from './visitor.js';

// One page of a big space as its published page needs it, read from the navigation rows of its
// ancestors (src/content/nav.ts) instead of the space's whole tree: the page found by path, the
// root pages and the page's branch (the sidebar of a space past FULL_TREE pages draws no more),
// its previous and next pages, whether any page has a condition. A first render after a restart
// then reads a few rows, whatever the size of the space. Anything it does not hold (a row missing:
// a tree written before navigation rows; a page whose links, link target or meta links name other
// pages; API references) is left to the whole index (pages.ts spacePages).

/** Up to this many pages, the sidebar draws the whole tree (and the whole index is read). */
export const FULL_TREE = 400;

/** A partial index: only `byPath.get(path)` is the page asked for, with its neighbours. */
export interface PartialPages extends PageIndexed {
  partial: true;
  near: { prev?: Located; next?: Located };
}

const PENDING = Symbol('pending');
const MISSING = Symbol('missing');

/**
 * The page at `path` of the space's current revision with what its render needs, from navigation
 * rows; `pending` while rows are being loaded (the read runs again); undefined: use the whole index.
 */
export function pageAt(tx: ReadTx, space: SpaceRecord, path: string, visitor: Visitor): PartialPages | 'pending' | undefined {
  if (!path) return undefined;
  const rev = currentRevision(tx, space);
  if (rev.rootNode === undefined) return undefined;
  const navOf = (hash: string): PageNavRecord => {
    const row = tx.get(PageNavs, contentRowId(space.id, hash));
    if (row) return row;
    throw tx.settled?.() === false ? PENDING : MISSING;
  };
  try {
    const root = navOf(rev.rootNode);
    if (root.count <= FULL_TREE) return undefined;
    // API references are drawn from the whole tree (api-load.ts): an organization with specs reads it.
    if (hasSpecs(tx, space.organization)) return undefined;
    return build(tx, space, navOf, root, path, visitor) ?? undefined;
  } catch (e) {
    if (e === PENDING) return 'pending';
    if (e === MISSING) return undefined;
    throw e;
  }
}

/** A level of the walk: the subpages of an ancestor (null: the root), their path prefix and ancestors. */
interface Level {
  kids: NavKid[];
  at: number;
  prefix: string;
  ancestors: Located['ancestors'];
}

const pathIn = (prefix: string, slug: string) => (prefix ? `${prefix}/${slug}` : slug);
const shell = (k: NavKid): PageNode => ({ ...k.node, createdAt: '', updatedAt: '', pages: [] });

function build(tx: ReadTx, space: SpaceRecord, navOf: (h: string) => PageNavRecord, root: PageNavRecord, path: string, visitor: Visitor) {
  // The page as `nodeAtPath` finds it: the last in depth-first order with that path.
  const find = (kids: NavKid[], prefix: string, levels: Level[], ancestors: Located['ancestors']): Level[] | undefined => {
    for (let i = kids.length - 1; i >= 0; i--) {
      const k = kids[i]!;
      const p = pathIn(prefix, k.node.slug);
      if (p !== path && p !== '' && !path.startsWith(`${p}/`)) continue;
      const here: Level = { kids, at: i, prefix, ancestors };
      if (k.n) {
        const inner = find(navOf(k.h).kids, p, [...levels, here], [...ancestors, { id: k.node.id, title: k.node.title }]);
        if (inner) return inner;
      }
      if (p === path) return [...levels, here];
    }
    return undefined;
  };
  const levels = find(root.kids, '', [], []);
  if (!levels) return undefined;
  const at = levels[levels.length - 1]!;
  const kid = at.kids[at.at]!;
  const row = nodeRow(tx, space.id, kid.h);
  if (!row) throw tx.settled?.() === false ? PENDING : MISSING;
  const byId = new Map<string, Located>();
  const byPath = new Map<string, Located>();
  const add = (l: Located) => (byId.set(l.node.id, l), byPath.set(l.path, l), l);
  // The root pages and each ancestor's subpages (the sidebar's open branch), the page itself whole.
  const last = levels.length - 1;
  const tree = root.kids.map(shell);
  // A group (at the top level only) always shows its subpages.
  const groups: [PageNode, NavKid][] = [];
  root.kids.forEach((k, i) => k.node.type === 'group' && k.n && ((tree[i]!.pages = navOf(k.h).kids.map(shell)), groups.push([tree[i]!, k])));
  const nodes = levels.map((l, d) => (d === 0 ? tree : d === 1 && tree[levels[0]!.at]!.pages.length ? tree[levels[0]!.at]!.pages : l.kids.map(shell)));
  const node: PageNode = { ...row.node, pages: kid.n ? navOf(kid.h).kids.map(shell) : [] };
  nodes[last]![at.at] = node;
  for (const [g, k] of groups) {
    const prefix = pathIn('', k.node.slug);
    navOf(k.h).kids.forEach((c, i) => add({ node: g.pages[i]!, path: pathIn(prefix, c.node.slug), ancestors: [{ id: g.id, title: g.title }], parent: g }));
  }
  levels.forEach((level, d) => {
    const parent = d ? nodes[d - 1]![levels[d - 1]!.at]! : null;
    if (parent) parent.pages = nodes[d]!;
    level.kids.forEach((k, i) => add({ node: nodes[d]![i]!, path: pathIn(level.prefix, k.node.slug), ancestors: level.ancestors, parent }));
  });
  const page = byPath.get(path)!;
  const below = [...at.ancestors, { id: node.id, title: node.title }];
  if (kid.n) navOf(kid.h).kids.forEach((k, i) => add({ node: node.pages[i]!, path: pathIn(path, k.node.slug), ancestors: below, parent: node }));
  // What the whole index would be needed for: pages named by id (links drawn in the sidebar, meta links).
  const named = [...byId.values()].some((l) => l.node.type === 'link' && (l.node.target?.kind === 'page' || l.node.target?.kind === 'anchor'));
  if (named || (node.metaLinks && [node.metaLinks.canonical, ...(node.metaLinks.alternates ?? [])].some((t) => t?.kind === 'page'))) return undefined;
  const pruned = (k: NavKid) => !!k.node.hidden || !satisfies(k.node.condition, visitor);
  const chain = (d: number) => levels[d]!.kids[levels[d]!.at]!;
  // Under a hidden page nothing is listed: the levels below the first hidden ancestor give no neighbour.
  let open = levels.length;
  for (let d = 0; d < last; d++) if (chain(d).node.hidden) (open = d + 1), (d = last);
  const located = (k: NavKid, prefix: string): Located => ({ node: shell(k), path: pathIn(prefix, k.node.slug), ancestors: [], parent: null });
  // The first listed, visible document page from `from` on (by `step`) in depth-first order.
  const scan = (kids: NavKid[], from: number, step: 1 | -1, prefix: string): Located | undefined => {
    for (let i = from; i >= 0 && i < kids.length; i += step) {
      const k = kids[i]!;
      if (pruned(k)) continue;
      if (step === 1 && k.node.type === 'document') return located(k, prefix);
      if (k.n) {
        const sub = navOf(k.h).kids;
        const inner = scan(sub, step === 1 ? 0 : sub.length - 1, step, pathIn(prefix, k.node.slug));
        if (inner) return inner;
      }
      if (step === -1 && k.node.type === 'document') return located(k, prefix);
    }
    return undefined;
  };
  const near: { prev?: Located; next?: Located } = {};
  if (open > last && kid.n && !pruned(kid)) near.next = scan(navOf(kid.h).kids, 0, 1, path);
  for (let d = Math.min(last, open - 1); d >= 0; d--) {
    const l = levels[d]!;
    near.next ??= scan(l.kids, l.at + 1, 1, l.prefix);
    if (!near.prev) {
      near.prev = scan(l.kids, l.at - 1, -1, l.prefix);
      const a = d > 0 ? chain(d - 1) : undefined;
      if (!near.prev && a && a.node.type === 'document' && !pruned(a)) near.prev = located(a, levels[d - 1]!.prefix);
    }
  }
  return {
    partial: true as const,
    rev: currentRevision(tx, space),
    tree,
    byPath,
    byId,
    docs: [],
    docAt: new Map(),
    conditional: !!root.conditional,
    pageCount: root.count,
    near,
    page,
  };
}

/**
 * Whether every document page of the space's current revision is listed and open to every
 * visitor (none hidden, none with a condition, no API reference), said by its root's navigation
 * row: then a search hit (which carries its page's path and ancestors, indexed at this revision)
 * needs nothing of the tree. `pending` while the row is being loaded.
 */
export function plainSpace(tx: ReadTx, space: SpaceRecord): boolean | 'pending' {
  const rev = currentRevision(tx, space);
  if (rev.rootNode === undefined) return false;
  const root = tx.get(PageNavs, contentRowId(space.id, rev.rootNode));
  if (!root) return tx.settled?.() === false ? 'pending' : false;
  return !root.hidden && !root.conditional && !hasSpecs(tx, space.organization);
}

// Spaces whose navigation rows are being derived (one write at a time per revision).
const deriving = new Set<string>();

/**
 * A space whose current tree was written before navigation rows (its root has none): its rows are
 * derived from the tree (read whole anyway by the request that finds them missing) and written
 * in the background, so that the next process's first render reads rows. Once per revision.
 */
export function deriveMissingNavs(ctx: Context, space: SpaceRecord): void {
  const key = `${space.id}@${space.revision}`;
  if (deriving.has(key)) return;
  deriving.add(key);
  void ctx.store
    .write((tx) => {
      const rev = currentRevision(tx, space);
      return rev.id === space.revision ? putMissingNavs(tx, rev) : 0;
    })
    .catch(() => deriving.delete(key)); // tried again by a later request
}

/** Whether the space's current tree has no navigation rows (a tree written before them). */
export function navRowsMissing(tx: ReadTx, space: SpaceRecord): boolean {
  const rev = currentRevision(tx, space);
  if (rev.rootNode === undefined) return false;
  return !tx.get(PageNavs, contentRowId(space.id, rev.rootNode)) && tx.settled?.() !== false;
}
