import type { PageNode } from './model.js';
import { slugify as slugifyText } from '../kernel/slug.js';

// Pure functions over a revision's page tree (no store): walking, paths, slugs, edits on a
// private copy. Paths join the slugs of the ancestors, groups included.

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

/** The children list a page id (or null for the root) holds, in a mutable tree. */
export function childrenOf(root: PageNode[], parentId: string | null): PageNode[] | undefined {
  if (parentId === null) return root;
  return findNode(root, parentId)?.pages;
}

export function findNode(root: PageNode[], id: string): PageNode | undefined {
  for (const n of root) {
    if (n.id === id) return n;
    const inner = findNode(n.pages, id);
    if (inner) return inner;
  }
  return undefined;
}

/** Removes a page (with its subtree) from a mutable tree; returns it and where it was. */
export function detach(root: PageNode[], id: string): { node: PageNode; siblings: PageNode[]; index: number } | undefined {
  const search = (list: PageNode[]): ReturnType<typeof detach> => {
    const index = list.findIndex((n) => n.id === id);
    if (index >= 0) return { node: list.splice(index, 1)[0]!, siblings: list, index };
    for (const n of list) {
      const r = search(n.pages);
      if (r) return r;
    }
    return undefined;
  };
  return search(root);
}

export function contains(node: PageNode, id: string): boolean {
  return node.id === id || node.pages.some((c) => contains(c, id));
}

/** Every document page's content hash in a tree (for reads that need the bodies). */
export function countPages(pages: readonly PageNode[]): number {
  return pages.reduce((n, p) => n + 1 + countPages(p.pages), 0);
}
