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
// Callers must not mutate what they get: authoring works on a structuredClone.
const TREE_CACHE_MAX = 16;
const trees = new Map<string, PageNode[]>();

/** The page tree of a revision, built from its nodes. */
export function treeOf(tx: ReadTx, rev: ContentRevision): PageNode[] {
  const key = `${rev.space}/${rev.id}`;
  const hit = trees.get(key);
  if (hit) return hit;
  const load = (hash: string): PageNode => {
    const row = tx.get<PageNodeRecord>('pageNodes', contentRowId(rev.space, hash));
    if (!row) throw new Error(`page node ${hash} of revision ${rev.id} is missing`);
    return { ...row.node, pages: row.children.map(load) } as PageNode;
  };
  const tree = (rev.root ?? []).map(load);
  if (trees.size >= TREE_CACHE_MAX) trees.delete(trees.keys().next().value!);
  trees.set(key, tree);
  return tree;
}

// 128 bits of SHA-256 in base64url: node hashes are repeated in parents and revisions, so short.
const nodeHash = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 22);

/** Writes the nodes of a tree that do not exist yet; returns the root's node hashes. */
export function putTree(tx: WriteTx, space: string, pages: readonly PageNode[]): string[] {
  const put = (p: PageNode): string => {
    const children = p.pages.map(put);
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
    root,
    files: [...content.files],
    ...(content.message ? { message: content.message } : {}),
    ...(content.mergedFrom ? { mergedFrom: content.mergedFrom } : {}),
    ...(content.author ? { author: content.author } : {}),
    ...(content.changeRequest ? { changeRequest: content.changeRequest } : {}),
  });
}
