import type { ContentRevision, PageNode } from '../../content/model.js';
import { currentRevision, readRevision, treeOf } from '../../content/revisions.js';
import { flatten, type Located } from '../../content/tree.js';
import type { SpaceRecord } from '../../spaces/model.js';
import type { ReadTx } from '../../store/port.js';
import { satisfies } from './conditions.js';
import type { Visitor } from './visitor.js';
import { apiTree, hasSpecs, inlineVersions, missingApis, type ApiPage, type Needed } from './api-load.js';

// A space's pages as a published site serves them: found by path, filtered by the visitor's
// claims (a page whose condition, or an ancestor's, fails is not there), ordered for
// previous/next. The index of a tree is built once per tree (trees are immutable and cached
// by revision, src/content/revisions.ts), so a request does not walk the space.

export interface PageIndexed {
  rev: ContentRevision;
  tree: readonly PageNode[];
  byPath: Map<string, Located>;
  byId: Map<string, Located>;
  /** Document pages in reading order, with their position in it. */
  docs: Located[];
  docAt: Map<string, number>;
  /** Whether any page has a condition (then what a page links to depends on the visitor). */
  conditional: boolean;
  /** The pages generated from OpenAPI specs (api/load.ts), by page id; the versions they and the inline operation blocks show. */
  api?: Map<string, ApiPage>;
  apiVersions?: string;
  /** Pages in the space (absent: as many as `byId` holds). */
  pageCount?: number;
  /** A partial index (page-nav.ts): the page's previous and next pages, for its visitor. */
  near?: { prev?: Located; next?: Located };
}

const indexes = new WeakMap<readonly PageNode[], Omit<PageIndexed, 'rev'>>();

function indexTree(tree: readonly PageNode[]) {
  let hit = indexes.get(tree);
  if (!hit) {
    const flat = flatten(tree);
    const docs = flat.filter((l) => l.node.type === 'document');
    hit = {
      tree,
      byPath: new Map(flat.map((l) => [l.path, l])),
      byId: new Map(flat.map((l) => [l.node.id, l])),
      docs,
      docAt: new Map(docs.map((l, i) => [l.node.id, i])),
      conditional: flat.some((l) => l.node.condition !== undefined),
    };
    indexes.set(tree, hit);
  }
  return hit;
}

export function spacePages(tx: ReadTx, space: SpaceRecord): PageIndexed {
  const rev = currentRevision(tx, space);
  const tree = treeOf(tx, rev);
  // A space with API references: its tree with their generated pages (when their specs are loaded).
  const api = apiTree(tx, space, tree);
  // Pages with inline operation blocks show their specs' latest versions too (api/inline.ts).
  const inline = inlineVersions(tx, space, tree);
  if (api) return { rev, ...indexTree(api.tree), api: api.pages, apiVersions: inline ? `${api.versions};${inline}` : api.versions };
  return { rev, ...indexTree(tree), ...(inline ? { apiVersions: `;${inline}` } : {}) };
}

/** The spaces' API reference versions not loaded yet (load them, then read again). */
export function apisToLoad(tx: ReadTx, spaces: SpaceRecord[]): Needed[] {
  // Only spaces of an organization with specs can need one: the others' trees are not read.
  return missingApis(
    tx,
    spaces.filter((space) => hasSpecs(tx, space.organization)).map((space) => ({ space, tree: treeOf(tx, currentRevision(tx, space)) })),
  );
}

/** Whether the visitor may see the page: its condition and its ancestors' all hold. */
export function pageVisible(ix: PageIndexed, l: Located, visitor: Visitor): boolean {
  if (!satisfies(l.node.condition, visitor)) return false;
  return l.ancestors.every((a) => satisfies(ix.byId.get(a.id)?.node.condition, visitor));
}

/** A visible document page in the reading order, from `from` stepping by `step` (listed pages only). */
function step(ix: PageIndexed, from: number, by: 1 | -1, visitor: Visitor): Located | undefined {
  for (let i = from + by; i >= 0 && i < ix.docs.length; i += by) {
    const l = ix.docs[i]!;
    if (!l.node.hidden && !l.ancestors.some((a) => ix.byId.get(a.id)?.node.hidden) && pageVisible(ix, l, visitor)) return l;
  }
  return undefined;
}

export const firstPage = (ix: PageIndexed, visitor: Visitor) => step(ix, -1, 1, visitor);

export function neighbours(ix: PageIndexed, l: Located, visitor: Visitor) {
  if (ix.near) return ix.near;
  const at = ix.docAt.get(l.node.id);
  if (at === undefined) return {};
  return { prev: step(ix, at, -1, visitor), next: step(ix, at, 1, visitor) };
}

/** The first visible document page under a group (a group's address leads there). */
export function firstUnder(ix: PageIndexed, group: Located, visitor: Visitor): Located | undefined {
  const walk = (pages: readonly PageNode[]): Located | undefined => {
    for (const p of pages) {
      const l = ix.byId.get(p.id)!;
      if (!pageVisible(ix, l, visitor)) continue;
      if (p.type === 'document') return l;
      const inner = walk(p.pages);
      if (inner) return inner;
    }
    return undefined;
  };
  return walk(group.node.pages);
}

/** How many revisions back a moved page's old address is looked for. */
export const REDIRECT_DEPTH = 50;

/**
 * The current page that used to be at `path`, looked for in the space's earlier revisions (along
 * first parents): the address a page had before a move or a rename leads to where it is now.
 */
export function movedFrom(tx: ReadTx, space: SpaceRecord, ix: PageIndexed, path: string): Located | undefined {
  let rev: ContentRevision | undefined = ix.rev;
  for (let i = 0; i < REDIRECT_DEPTH && rev?.parents.length; i++) {
    try {
      rev = readRevision(tx, space.id, rev.parents[0]!);
    } catch {
      return undefined;
    }
    if (!rev.rootNode && !rev.root) continue;
    const old = indexTree(treeOf(tx, rev)).byPath.get(path);
    if (old) {
      const now = ix.byId.get(old.node.id);
      return now && now.path !== path ? now : undefined;
    }
  }
  return undefined;
}
