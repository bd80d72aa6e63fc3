import { createHash } from 'node:crypto';
import type { Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { contentRowId, type ContentRevision, type FileEntry, type PageContentRecord, type PageNode } from './model.js';

export const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** A revision of the space, or 404 (a revision id of another space is not found either). */
export function readRevision(tx: ReadTx, space: string, id: string): ContentRevision {
  const rev = tx.get<ContentRevision>('revisions', id);
  if (!rev || rev.space !== space) throw notFound(`revision ${id} not found in space ${space}`);
  return rev;
}

export const currentRevision = (tx: ReadTx, space: SpaceRecord) => readRevision(tx, space.id, space.revision);

export const pagesOf = (rev: ContentRevision): readonly PageNode[] => rev.pages ?? [];
export const filesOf = (rev: ContentRevision): readonly FileEntry[] => rev.files ?? [];

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
  content: { pages: PageNode[]; files: FileEntry[]; message?: string; type?: 'edits' | 'merge'; mergedFrom?: string },
): ContentRevision {
  return tx.put<ContentRevision>('revisions', {
    id: newId(),
    space,
    parents,
    createdAt: ctx.clock.now().toISOString(),
    type: content.type ?? 'edits',
    pages: content.pages,
    files: content.files,
    ...(content.message ? { message: content.message } : {}),
    ...(content.mergedFrom ? { mergedFrom: content.mergedFrom } : {}),
  });
}
