import { createHash, hash } from 'node:crypto';
import type { Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { contentRowId, type ContentRevision, type FileEntry, type PageNode, type PageNodeRecord, type ReusableEntry } from './model.js';
import { EditableTree, nodeIn, PageIndex, treeWork } from './tree.js';
import { findNode, nodeRow } from './nodes.js';
import { PageContents, PageNavs, PageNodes } from './tables.js';
import { putNav } from './nav.js';
import { Revisions } from '../spaces/tables.js';

export const sha256 = (data: string | Buffer) => hash('sha256', data, 'hex');

/** A revision of the space, or 404 (a revision id of another space is not found either). */
export function readRevision(tx: ReadTx, space: string, id: string): ContentRevision {
  const rev = tx.get(Revisions, id);
  if (!rev || rev.space !== space) throw notFound(`revision ${id} not found in space ${space}`);
  return rev;
}

export const currentRevision = (tx: ReadTx, space: SpaceRecord) => readRevision(tx, space.id, space.revision);

export const filesOf = (rev: ContentRevision): readonly FileEntry[] => rev.files ?? [];

// Materialized trees by root node hash (a Merkle hash: the whole tree's content, so an entry
// never goes stale, whatever wrote it), or by revision id for revisions without a root node.
// Callers must not mutate what they get: authoring works on a copy (`editableTree`).
const TREE_CACHE_MAX = 16;
const trees = new Map<string, PageNode[]>();

const treeKey = (space: string, rev: ContentRevision) => (rev.rootNode !== undefined ? `${space}#${rev.rootNode}` : `${space}/${rev.id}`);

// Materialized subtrees by node row id (`<space>:<hash>`). A node's subtree is a function of its
// hash (Merkle), so revisions share the subtrees they did not change: the tree of a revision
// after an edit costs the loads of the changed nodes (the page and its ancestors), not of
// every page. Bounded: cleared when full (an entry is rebuilt from its row on the next use).
const NODE_CACHE_MAX = 200_000;
const subtrees = new Map<string, PageNode>();

/**
 * The space and node hash a materialized (never mutated) PageNode was loaded from; `legacy`: from
 * the place stores written before kept nodes (nodes.ts), so a write copies it to the node group.
 */
const loadedFrom = new WeakMap<PageNode, { space: string; hash: string; legacy?: boolean }>();

/** The node hashes of a revision's root pages. */
export function rootOf(tx: ReadTx, rev: ContentRevision): string[] {
  if (rev.rootNode === undefined) return rev.root ?? [];
  const row = nodeRow(tx, rev.space, rev.rootNode);
  if (!row) throw new Error(`root node ${rev.rootNode} of revision ${rev.id} is missing`);
  return row.children;
}

/** Writes (once) the root node listing `root`; returns its hash. */
function putRootNode(tx: WriteTx, space: string, root: string[], pages?: readonly PageNode[]): string {
  const hash = nodeHash(JSON.stringify(['root', root]));
  const id = contentRowId(space, hash);
  // A root node is not a page: no fields of its own, only children.
  if (!tx.get(PageNodes, id)) {
    tx.put(PageNodes, { id, space, node: {} as PageNodeRecord['node'], children: root });
    // Its navigation row, when the tree is at hand (a revision given by its root node hashes
    // shares its root node, and so its row, with the revision it was made from).
    if (pages) putNav(tx, space, hash, pages, root);
  }
  return hash;
}

/** The page tree of a revision, built from its nodes. */
export function treeOf(tx: ReadTx, rev: ContentRevision): PageNode[] {
  const key = treeKey(rev.space, rev);
  const hit = trees.get(key);
  if (hit) return hit;
  const load = (hash: string): PageNode => {
    const id = contentRowId(rev.space, hash);
    const cached = subtrees.get(id);
    if (cached) return cached;
    const found = findNode(tx, rev.space, hash);
    if (!found) throw new Error(`page node ${hash} of revision ${rev.id} is missing`);
    const { row, legacy } = found;
    treeWork.visits++;
    const node = { ...row.node, pages: row.children.map(load) } as PageNode;
    loadedFrom.set(node, legacy ? { space: rev.space, hash, legacy } : { space: rev.space, hash });
    if (subtrees.size >= NODE_CACHE_MAX) subtrees.clear();
    subtrees.set(id, node);
    return node;
  };
  // A tree is read node by node from its root: the node group whole in this run, rather than the
  // root's segment first and the rest at the next run (which would walk again what it had read).
  tx.wholeGroup?.(PageNodes, contentRowId(rev.space, rev.rootNode ?? ''));
  const tree = rootOf(tx, rev).map(load);
  keepTree(key, tree);
  return tree;
}

/** The tree of `key` (treeKeyOf) when it is materialized in this process, without reading anything. */
export function materializedTree(key: string): readonly PageNode[] | undefined {
  return trees.get(key);
}

/** Forgets every materialized tree and subtree (tests and benches: the next read loads the rows). */
export function forgetTrees(): void {
  trees.clear();
  subtrees.clear();
  indexes.clear();
}

function keepTree(key: string, tree: PageNode[]) {
  if (trees.size >= TREE_CACHE_MAX) trees.delete(trees.keys().next().value!);
  trees.set(key, tree);
}

// Page indexes (id -> parent) by tree, like `trees`. The revision an authoring batch
// commits gets its index from the batch (its base's plus the batch's moves), so a chain of
// batches never walks a whole tree; any other revision's is built by one walk on first use.
const INDEX_CACHE_MAX = 32;
const indexes = new Map<string, PageIndex>();

function remember(key: string, index: PageIndex) {
  if (indexes.size >= INDEX_CACHE_MAX) indexes.delete(indexes.keys().next().value!);
  indexes.set(key, index);
}

/** The page index of a revision (page id -> parent id). */
export function indexOf(tx: ReadTx, rev: ContentRevision): PageIndex {
  const key = treeKey(rev.space, rev);
  const hit = indexes.get(key);
  if (hit) return hit;
  const index = PageIndex.of(treeOf(tx, rev));
  remember(key, index);
  return index;
}

/** A page of a revision and its parent's id (null: a root page), found without a walk. */
export function pageOf(tx: ReadTx, rev: ContentRevision, id: string): { node: PageNode; parent: string | null } | undefined {
  const index = indexOf(tx, rev);
  const parent = index.parentOf(id);
  if (parent === undefined) return undefined;
  const node = nodeIn(treeOf(tx, rev), (x) => index.parentOf(x), id);
  return node && { node, parent };
}

// The editable trees given out, by their root list (what `commitRevision` receives as `pages`).
const editing = new WeakMap<readonly PageNode[], EditableTree>();

/**
 * A revision's page tree to edit, copy on write (see EditableTree), committed by passing its
 * `roots` to `commitRevision` (or `putTree`): the nodes it did not copy are the revision's own
 * and keep their hashes, so only the pages changed and their ancestors are hashed and written.
 */
export function editableTree(tx: ReadTx, rev: ContentRevision): EditableTree {
  const tree = new EditableTree(treeOf(tx, rev), indexOf(tx, rev));
  editing.set(tree.roots, tree);
  return tree;
}

// 128 bits of SHA-256 in base64url: node hashes are repeated in parents and revisions, so short.
const nodeHash = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 22);

/** Writes the nodes of a tree that do not exist yet; returns the root's node hashes. */
export function putTree(tx: WriteTx, space: string, pages: readonly PageNode[]): string[] {
  // An edited tree is sealed: its nodes become a revision's, immutable, and keep their hashes
  // like loaded ones (so the next batch, on that revision, starts from them as they are).
  const edited = editing.get(pages);
  edited?.seal();
  const put = (p: PageNode): string => {
    // A node of `treeOf` (never mutated) keeps the hash it was loaded from, and so does its
    // whole subtree: an edit copies what it changes. Its row exists: it was loaded from this
    // space's rows (or written with the revision that made it known), and node rows are only
    // ever deleted with their space.
    const from = loadedFrom.get(p);
    if (from?.space === space && !from.legacy) return from.hash;
    treeWork.visits++;
    const children = p.pages.map(put);
    const { pages: _omit, ...node } = p;
    // A node read from where older stores kept it is copied, under its hash, to the node group
    // (once: then known as loaded from there), so the revision's tree reads from it alone.
    const hash = from?.space === space ? from.hash : nodeHash(JSON.stringify([node, children]));
    const id = contentRowId(space, hash);
    if (!tx.get(PageNodes, id)) {
      tx.put(PageNodes, { id, space, node, children });
      putNav(tx, space, hash, p.pages, children);
    }
    if (edited || from?.space === space) loadedFrom.set(p, { space, hash });
    return hash;
  };
  return pages.map(put);
}

/**
 * Writes the navigation rows (nav.ts) a revision's tree lacks, a tree written before they existed:
 * its root node's and each of its nodes' with subpages. Returns how many it wrote.
 */
export function putMissingNavs(tx: WriteTx, rev: ContentRevision): number {
  if (rev.rootNode === undefined) return 0;
  const tree = treeOf(tx, rev);
  const missing = (hash: string) => !tx.get(PageNavs, contentRowId(rev.space, hash));
  let n = 0;
  const put = (hash: string, pages: readonly PageNode[]) => {
    const hashes = pages.map((c) => loadedFrom.get(c)?.hash);
    if (hashes.every((h) => h !== undefined) && missing(hash)) {
      putNav(tx, rev.space, hash, pages, hashes as string[]);
      n++;
    }
  };
  put(rev.rootNode, tree);
  const walk = (p: PageNode) => {
    if (!p.pages.length) return;
    const from = loadedFrom.get(p);
    if (from) put(from.hash, p.pages);
    p.pages.forEach(walk);
  };
  tree.forEach(walk);
  return n;
}

/** The markdown body of a document page ('' for other kinds). */
export function markdownOf(tx: ReadTx, space: string, node: PageNode): string {
  if (!node.content) return '';
  return tx.get(PageContents, contentRowId(space, node.content))?.markdown ?? '';
}

/**
 * Stores a body once per space (content addressed) and returns its hash; `spans`: where its
 * links are (link-index.ts), when the writer parsed it anyway, stored bound to the hash.
 */
export function putMarkdown(tx: WriteTx, space: string, markdown: string, spans?: number[]): string {
  const sha = sha256(markdown);
  const id = contentRowId(space, sha);
  if (!tx.get(PageContents, id)) tx.put(PageContents, { id, space, markdown, ...(spans ? { links: { sha, spans } } : {}) });
  return sha;
}

/** Writes a new revision after `parent` (its page tree and files given whole, compactly). */
export function commitRevision(
  tx: WriteTx,
  ctx: Context,
  space: string,
  parents: string[],
  content: ({ pages: PageNode[] } | { root: string[] }) & {
    files: readonly FileEntry[];
    /** Reusable content; absent: the first parent's, as it was (every writer that does not edit it). */
    reusable?: readonly ReusableEntry[];
    message?: string;
    type?: ContentRevision['type'];
    mergedFrom?: string;
    author?: string;
    changeRequest?: string;
  },
): ContentRevision {
  const root = 'root' in content ? content.root : putTree(tx, space, content.pages);
  const rootNode = putRootNode(tx, space, root, 'pages' in content ? content.pages : undefined);
  const reusable = content.reusable ?? (parents[0] ? tx.get(Revisions, parents[0])?.reusable : undefined) ?? [];
  const rev = tx.put(Revisions, {
    id: newId(),
    space,
    parents,
    createdAt: ctx.clock.now().toISOString(),
    type: content.type ?? 'edits',
    rootNode,
    files: [...content.files],
    ...(reusable.length ? { reusable: [...reusable] } : {}),
    ...(content.message ? { message: content.message } : {}),
    ...(content.mergedFrom ? { mergedFrom: content.mergedFrom } : {}),
    ...(content.author ? { author: content.author } : {}),
    ...(content.changeRequest ? { changeRequest: content.changeRequest } : {}),
  });
  // An edited tree (sealed by putTree) is the new revision's tree, and knows its index: the next
  // batch on this revision neither loads its nodes again nor walks it to find pages. Kept by
  // content (the root node hash), so that they are right even if this write does not commit
  // or its function runs again; whatever commits that hash has written every node of it.
  const edited = 'pages' in content ? editing.get(content.pages) : undefined;
  if (edited) {
    keepTree(treeKey(space, rev), edited.roots);
    remember(treeKey(space, rev), edited.index());
  }
  return rev;
}
