import type { PageNode } from './model.js';
import { slugify as slugifyText } from '../kernel/slug.js';

// Pure functions over a revision's page tree (no store): walking, paths, slugs, and the
// copy-on-write editing of a revision's tree by an authoring batch. Paths join the slugs of the
// ancestors, groups included.

/**
 * Pages visited by the walks here and in revisions.ts (a page walked, indexed, copied, hashed
 * or loaded from its row counts one). Only for tests: an authoring batch must visit the pages it
 * changes and their ancestors, never every page of the space.
 */
export const treeWork = { visits: 0 };

export interface Located {
  node: PageNode;
  path: string;
  /** Titles and ids of the ancestors, from the root. */
  ancestors: { id: string; title: string }[];
  parent: PageNode | null;
}

/** Every page, depth first in tree order, with its path and ancestors. */
export function flatten(pages: readonly PageNode[]): Located[] {
  const out: Located[] = [];
  const walk = (list: readonly PageNode[], prefix: string, ancestors: Located['ancestors'], parent: PageNode | null) => {
    for (const node of list) {
      treeWork.visits++;
      const path = prefix ? `${prefix}/${node.slug}` : node.slug;
      out.push({ node, path, ancestors, parent });
      walk(node.pages, path, [...ancestors, { id: node.id, title: node.title }], node);
    }
  };
  walk(pages, '', [], null);
  return out;
}

export function indexById(pages: readonly PageNode[]): Map<string, Located> {
  return new Map(flatten(pages).map((l) => [l.node.id, l]));
}

export function indexByPath(pages: readonly PageNode[]): Map<string, Located> {
  return new Map(flatten(pages).map((l) => [l.path, l]));
}

/** A page slug from a title (at most 100 characters, 'page' when nothing is left). */
export const slugify = (title: string) => slugifyText(title, 100, 'page');

export function countPages(pages: readonly PageNode[]): number {
  return pages.reduce((n, p) => (treeWork.visits++, n + 1 + countPages(p.pages)), 0);
}

/** Where a page is: its parent's id, null for a root page; undefined when there is no such page. */
export type Parent = string | null | undefined;

/**
 * Page id -> parent id of one revision's tree. Immutable, so that it can be cached with the tree
 * (revisions.ts, by root node hash) and shared: the index of the revision an authoring batch writes
 * is its base's index plus the batch's moves (`with`), not a walk of the new tree. The moves
 * are kept as levels over a full map, merged as they grow (each level at least twice the size
 * of the one above it): a lookup reads O(log n) maps, and a page id is copied O(log n) times
 * over the revisions that follow, whatever the size of the space.
 */
export class PageIndex {
  private constructor(
    /** Parent by page id; in a level above the full map, undefined marks a page removed. */
    private readonly own: ReadonlyMap<string, Parent>,
    private readonly below: PageIndex | undefined,
  ) {}

  /** The index of a whole tree (one walk). */
  static of(pages: readonly PageNode[]): PageIndex {
    const own = new Map<string, Parent>();
    const walk = (list: readonly PageNode[], parent: string | null) => {
      for (const n of list) {
        treeWork.visits++;
        own.set(n.id, parent);
        walk(n.pages, n.id);
      }
    };
    walk(pages, null);
    return new PageIndex(own, undefined);
  }

  parentOf(id: string): Parent {
    for (let level: PageIndex | undefined = this; level; level = level.below) {
      const p = level.own.get(id);
      if (p !== undefined || level.own.has(id)) return p;
    }
    return undefined;
  }

  /** This index with pages placed (a parent) or removed (undefined). */
  with(moves: ReadonlyMap<string, Parent>): PageIndex {
    if (!moves.size) return this;
    let top = new PageIndex(new Map(moves), this);
    while (top.below && top.own.size * 2 >= top.below.own.size) {
      const lower = top.below;
      const merged = new Map(lower.own);
      for (const [id, p] of top.own) {
        if (p === undefined && !lower.below)
          merged.delete(id); // the full map lists present pages only
        else merged.set(id, p);
      }
      top = new PageIndex(merged, lower.below);
    }
    return top;
  }
}

/** The node of page `id` in a tree indexed by `parentOf` (down from the root along its ancestors). */
export function nodeIn(roots: readonly PageNode[], parentOf: (id: string) => Parent, id: string): PageNode | undefined {
  const line: string[] = [];
  for (let at: Parent = id; at !== null; at = parentOf(at)) {
    if (at === undefined) return undefined;
    line.push(at);
  }
  let list = roots;
  let node: PageNode | undefined;
  for (let i = line.length - 1; i >= 0; i--) {
    node = list.find((n) => n.id === line[i]);
    if (!node) return undefined;
    list = node.pages;
  }
  return node;
}

/**
 * The page at `path`, as the last page of that path in depth-first order would be found by
 * `indexByPath(pages).get(path)`, visiting only the pages whose path leads there.
 */
export function nodeAtPath(roots: readonly PageNode[], path: string): { node: PageNode; path: string } | undefined {
  const search = (list: readonly PageNode[], prefix: string): { node: PageNode; path: string } | undefined => {
    for (let i = list.length - 1; i >= 0; i--) {
      const node = list[i]!;
      const p = prefix ? `${prefix}/${node.slug}` : node.slug;
      if (p !== path && p !== '' && !path.startsWith(p + '/')) continue;
      treeWork.visits++;
      // Its subpages come after it in depth-first order.
      const inner = search(node.pages, p);
      if (inner) return inner;
      if (p === path) return { node, path: p };
    }
    return undefined;
  };
  return search(roots, '');
}

/**
 * A revision's page tree being edited by an authoring batch, copy on write: `roots` starts as
 * the revision's (shared, immutable) nodes, and a page is copied (with its ancestors, whose
 * children lists then change) only when the batch changes it or places a page under it. Pages
 * are found through the revision's PageIndex and the batch's own moves, never by a walk, so a
 * batch costs the pages it touches and their ancestors (and their sibling lists), whatever the
 * size of the space. Every change to the shape of the tree goes through the methods here.
 */
export class EditableTree {
  readonly roots: PageNode[];
  /** Private copies (and pages new in this batch), by id: their fields and children lists are the batch's to change. */
  private readonly owned = new Map<string, PageNode>();
  /** Parents that changed in this batch (undefined: removed). */
  private readonly moves = new Map<string, Parent>();
  /** Committed: its nodes are a revision's (immutable) from then on. */
  private sealed = false;

  constructor(
    roots: readonly PageNode[],
    private readonly base: PageIndex,
  ) {
    this.roots = [...roots];
  }

  parentOf(id: string): Parent {
    return this.moves.has(id) ? this.moves.get(id) : this.base.parentOf(id);
  }

  has(id: string): boolean {
    return this.parentOf(id) !== undefined;
  }

  /** The page as it is now (maybe a shared node: do not change it, use `edit`). */
  node(id: string): PageNode | undefined {
    if (!this.has(id)) return undefined;
    return this.owned.get(id) ?? nodeIn(this.roots, (x) => this.parentOf(x), id);
  }

  /** Ends the edit: the tree is a revision's from now on and may not change. */
  seal(): void {
    this.sealed = true;
  }

  private writable(): void {
    if (this.sealed) throw new Error('this tree was committed and may no longer change');
  }

  /** The page's private copy, to change (its ancestors copied too); the page must exist. */
  edit(id: string): PageNode {
    this.writable();
    const mine = this.owned.get(id);
    if (mine && this.has(id)) return mine;
    const parent = this.parentOf(id);
    if (parent === undefined) throw new Error(`page ${id} is not in the tree`);
    const list = this.childrenOf(parent);
    const i = list.findIndex((n) => n.id === id);
    const was = list[i]!;
    treeWork.visits++;
    const copy: PageNode = { ...was, pages: [...was.pages] };
    if (was.target) copy.target = { ...was.target }; // the only field that is an object
    list[i] = copy;
    this.owned.set(id, copy);
    return copy;
  }

  /** The children list of a page (null: the root list), to change. */
  childrenOf(parent: string | null): PageNode[] {
    return parent === null ? this.roots : this.edit(parent).pages;
  }

  /** Places a private or new page (with its subtree) under `parent` at `index`. */
  insert(node: PageNode, parent: string | null, index: number): void {
    this.writable();
    this.childrenOf(parent).splice(index, 0, node);
    this.owned.set(node.id, node);
    this.moves.set(node.id, parent);
  }

  /** Takes a page out of its list (to be placed again); returns where it was. */
  detach(id: string): { node: PageNode; parent: string | null; index: number } | undefined {
    this.writable();
    const parent = this.parentOf(id);
    if (parent === undefined) return undefined;
    const list = this.childrenOf(parent);
    const index = list.findIndex((n) => n.id === id);
    const [node] = list.splice(index, 1);
    this.moves.set(id, undefined);
    return { node: node!, parent, index };
  }

  /** Removes a page and its subtree; returns the page removed (do not change it). */
  remove(id: string): PageNode | undefined {
    const at = this.detach(id);
    if (!at) return undefined;
    const gone = (n: PageNode) => {
      treeWork.visits++;
      this.moves.set(n.id, undefined);
      n.pages.forEach(gone);
    };
    gone(at.node);
    return at.node;
  }

  /** Puts `node` (a new object for the same page id, with a private children list) in the page's place. */
  replace(node: PageNode): void {
    this.writable();
    const list = this.childrenOf(this.parentOf(node.id)!);
    list[list.findIndex((n) => n.id === node.id)] = node;
    this.owned.set(node.id, node);
  }

  /** Whether `id` is page `ancestor` or one of its subpages. */
  within(ancestor: string, id: string): boolean {
    for (let at: Parent = id; at; at = this.parentOf(at)) if (at === ancestor) return true;
    return false;
  }

  /** A page and its path (slugs of its ancestors and its own). */
  locate(id: string): { node: PageNode; path: string } | undefined {
    const line: string[] = [];
    for (let at: Parent = id; at !== null; at = this.parentOf(at)) {
      if (at === undefined) return undefined;
      line.push(at);
    }
    let list: readonly PageNode[] = this.roots;
    let path = '';
    let node: PageNode | undefined;
    for (let i = line.length - 1; i >= 0; i--) {
      node = list.find((n) => n.id === line[i]);
      if (!node) return undefined;
      path = path ? `${path}/${node.slug}` : node.slug;
      list = node.pages;
    }
    return node && { node, path };
  }

  /** The id of the page at a path (the last in depth-first order, as `indexByPath` has it). */
  idAt(path: string): string | undefined {
    return nodeAtPath(this.roots, path)?.node.id;
  }

  /** The index of the tree as edited (for the revision it is committed as). */
  index(): PageIndex {
    return this.base.with(this.moves);
  }
}
