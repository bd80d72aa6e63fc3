import { createHash } from 'node:crypto';
import type { Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { contentRowId, type ContentRevision, type FileEntry, type PageContentRecord, type PageNode, type PageNodeRecord } from './model.js';

export const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** A revision of the space, or 404 (a revision id of another space is not found either). */
export function readRevision(tx: ReadTx, space: string, id: string): ContentRevision {
  const rev = tx.get<ContentRevision>('revisions', id);
  if (!rev || rev.space !== space) throw notFound(`revision ${id} not found in space ${space}`);
  return rev;
}

export const currentRevision = (tx: ReadTx, space: SpaceRecord) => readRevision(tx, space.id, space.revision);

export const filesOf = (rev: ContentRevision): readonly FileEntry[] => rev.files ?? [];

// Materialized trees by revision id (revisions are immutable, so an entry never goes stale).
// Callers must not mutate what they get: authoring works on a copy (`editableTree`).
const TREE_CACHE_MAX = 16;
const trees = new Map<string, PageNode[]>();

// Materialized subtrees by node row id (`<space>:<hash>`). A node's subtree is a function of its
// hash (Merkle), so revisions share the subtrees they did not change: the tree of a revision
// after an edit costs the loads of the changed nodes (the page and its ancestors), not of
// every page. Bounded: cleared when full (an entry is rebuilt from its row on the next use).
const NODE_CACHE_MAX = 200_000;
const subtrees = new Map<string, PageNode>();

/** The node hash and children hashes a materialized (never mutated) PageNode was loaded from. */
const loadedFrom = new WeakMap<PageNode, { hash: string; children: string[] }>();

/** The node hashes of a revision's root pages. */
export function rootOf(tx: ReadTx, rev: ContentRevision): string[] {
  if (rev.rootNode === undefined) return rev.root ?? [];
  const row = tx.get<PageNodeRecord>('pageNodes', contentRowId(rev.space, rev.rootNode));
  if (!row) throw new Error(`root node ${rev.rootNode} of revision ${rev.id} is missing`);
  return row.children;
}

/** Writes (once) the root node listing `root`; returns its hash. */
function putRootNode(tx: WriteTx, space: string, root: string[]): string {
  const hash = nodeHash(JSON.stringify(['root', root]));
  const id = contentRowId(space, hash);
  // A root node is not a page: no fields of its own, only children.
  if (!tx.get(TABLE_NODES, id)) tx.put<PageNodeRecord>(TABLE_NODES, { id, space, node: {} as PageNodeRecord['node'], children: root });
  return hash;
}

/** The page tree of a revision, built from its nodes. */
export function treeOf(tx: ReadTx, rev: ContentRevision): PageNode[] {
  const key = `${rev.space}/${rev.id}`;
  const hit = trees.get(key);
  if (hit) return hit;
  const load = (hash: string): PageNode => {
    const id = contentRowId(rev.space, hash);
    const cached = subtrees.get(id);
    if (cached) return cached;
    const row = tx.get<PageNodeRecord>('pageNodes', id);
    if (!row) throw new Error(`page node ${hash} of revision ${rev.id} is missing`);
    const node = { ...row.node, pages: row.children.map(load) } as PageNode;
    loadedFrom.set(node, { hash, children: row.children });
    if (subtrees.size >= NODE_CACHE_MAX) subtrees.clear();
    subtrees.set(id, node);
    return node;
  };
  const tree = rootOf(tx, rev).map(load);
  if (trees.size >= TREE_CACHE_MAX) trees.delete(trees.keys().next().value!);
  trees.set(key, tree);
  return tree;
}

// For the root list of each editable copy, the nodes of `treeOf` it was copied from, by page id,
// so that `putTree` can reuse the hash of a node the edit left as it was instead of serializing
// and hashing it again (keyed by id: an identity map per node costs more than the hashing saved).
const copiedFrom = new WeakMap<readonly PageNode[], { space: string; origin: Map<string, PageNode> }>();

/** A private, mutable copy of a revision's page tree, for edits committed with `putTree`. */
export function editableTree(tx: ReadTx, rev: ContentRevision): PageNode[] {
  const origin = new Map<string, PageNode>();
  const copy = (n: PageNode): PageNode => {
    const c: PageNode = { ...n, pages: n.pages.map(copy) };
    if (n.target) c.target = { ...n.target }; // the only field that is an object
    origin.set(n.id, n);
    return c;
  };
  const root = treeOf(tx, rev).map(copy);
  copiedFrom.set(root, { space: rev.space, origin });
  return root;
}

/** Same own fields (children aside) as the node it was copied from. */
function sameFields(a: PageNode, b: PageNode): boolean {
  let n = 0;
  for (const k in a) {
    if (k === 'pages') continue;
    n++;
    const x = (a as any)[k];
    const y = (b as any)[k];
    if (x !== y && (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null || JSON.stringify(x) !== JSON.stringify(y))) return false;
  }
  for (const k in b) if (k !== 'pages') n--;
  return n === 0;
}

// 128 bits of SHA-256 in base64url: node hashes are repeated in parents and revisions, so short.
const nodeHash = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 22);

/** Writes the nodes of a tree that do not exist yet; returns the root's node hashes. */
export function putTree(tx: WriteTx, space: string, pages: readonly PageNode[]): string[] {
  const copied = copiedFrom.get(pages);
  const origin = copied?.space === space ? copied.origin : undefined;
  const put = (p: PageNode): string => {
    const children = p.pages.map(put);
    // A node of an editable copy left as it was keeps the hash it was loaded from (the same
    // fields and children hashes). Its row exists: it was loaded from this space's rows, and
    // node rows are only ever deleted with their space.
    const was = origin?.get(p.id);
    const from = was && loadedFrom.get(was);
    if (from && from.children.length === children.length && from.children.every((h, i) => h === children[i]) && sameFields(p, was)) {
      return from.hash;
    }
    const { pages: _omit, ...node } = p;
    const hash = nodeHash(JSON.stringify([node, children]));
    const id = contentRowId(space, hash);
    if (!tx.get(TABLE_NODES, id)) tx.put<PageNodeRecord>(TABLE_NODES, { id, space, node, children });
    return hash;
  };
  return pages.map(put);
}

const TABLE_NODES = 'pageNodes';

/** The markdown body of a document page ('' for other kinds). */
export function markdownOf(tx: ReadTx, space: string, node: PageNode): string {
  if (!node.content) return '';
  return tx.get<PageContentRecord>('pageContents', contentRowId(space, node.content))?.markdown ?? '';
}

/** Stores a body once per space (content addressed) and returns its hash. */
export function putMarkdown(tx: WriteTx, space: string, markdown: string): string {
  const sha = sha256(markdown);
  const id = contentRowId(space, sha);
  if (!tx.get('pageContents', id)) tx.put<PageContentRecord>('pageContents', { id, space, markdown });
  return sha;
}

/** Writes a new revision after `parent` (its page tree and files given whole, compactly). */
export function commitRevision(
  tx: WriteTx,
  ctx: Context,
  space: string,
  parents: string[],
  content: ({ pages: PageNode[] } | { root: string[] }) & { files: readonly FileEntry[]; message?: string; type?: ContentRevision['type']; mergedFrom?: string; author?: string; changeRequest?: string },
): ContentRevision {
  const root = 'root' in content ? content.root : putTree(tx, space, content.pages);
  return tx.put<ContentRevision>('revisions', {
    id: newId(),
    space,
    parents,
    createdAt: ctx.clock.now().toISOString(),
    type: content.type ?? 'edits',
    rootNode: putRootNode(tx, space, root),
    files: [...content.files],
    ...(content.message ? { message: content.message } : {}),
    ...(content.mergedFrom ? { mergedFrom: content.mergedFrom } : {}),
    ...(content.author ? { author: content.author } : {}),
    ...(content.changeRequest ? { changeRequest: content.changeRequest } : {}),
  });
}
