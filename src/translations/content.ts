import type { Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { commitRevision, currentRevision, filesOf, markdownOf, putMarkdown, treeOf } from '../content/revisions.js';
import type { FileEntry, PageNode } from '../content/model.js';
import { SPACE_TITLE_MAX, type RevisionRecord } from '../spaces/model.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { Spaces } from '../spaces/tables.js';

// The two places where a translation run meets space content. Everything else in a run (the
// translator, stats, status, the target space) is independent of how content is stored.
// `readSourcePages` reads the document pages of the source's current revision (titles and
// markdown, the stored source of truth), with the tree and files to rebuild; the run translates
// titles and bodies; `writeTranslatedPages` writes the same tree into a new revision of the
// target with the translated texts. Page ids are kept (the target is a translated copy, so its
// internal `/pages/<id>` links still resolve); file entries are kept too (bytes are content
// addressed and shared, src/content/blobs.ts).

export interface SourcePage {
  /** The source page's id: stats count unique pages by it. */
  id: string;
  title: string;
  /** The page's text (markdown, the stored source of truth for content). */
  markdown: string;
}

export interface SourceContent {
  /** The source space's title: translated too, as the target space's title. */
  title: string;
  /** The revision read, for a record of what was translated. */
  revision: string;
  pages: SourcePage[];
  /** The page tree and files of that revision, rebuilt in the target. */
  tree: PageNode[];
  files: readonly FileEntry[];
}

export type TranslatedPage = SourcePage;

/** The source space's current content; 404 when the space is gone (deleted or purged). */
export function readSourcePages(tx: ReadTx, spaceId: string): SourceContent {
  const space = tx.get(Spaces, spaceId);
  if (!space || space.deletedAt) throw notFound(`source.space: space ${spaceId} no longer exists`);
  const rev = currentRevision(tx, space);
  const tree = treeOf(tx, rev);
  const pages: SourcePage[] = [];
  const walk = (nodes: readonly PageNode[]) => {
    for (const n of nodes) {
      if (n.type === 'document') pages.push({ id: n.id, title: n.title, markdown: markdownOf(tx, space.id, n) });
      walk(n.pages);
    }
  };
  walk(tree);
  return { title: space.title, revision: space.revision, pages, tree, files: filesOf(rev) };
}

/**
 * Writes the translated copy into the target space as a new revision (parent: its current one),
 * which becomes the space's revision; the space takes the translated title. Returns the revision.
 */
export function writeTranslatedPages(
  tx: WriteTx,
  ctx: Context,
  targetSpaceId: string,
  content: { title: string; pages: TranslatedPage[]; tree: readonly PageNode[]; files: readonly FileEntry[] },
): RevisionRecord {
  const space = tx.get(Spaces, targetSpaceId);
  if (!space) throw notFound(`space ${targetSpaceId} not found`);
  const now = ctx.clock.now().toISOString();
  const translated = new Map(content.pages.map((p) => [p.id, p]));
  const rebuild = (nodes: readonly PageNode[]): PageNode[] =>
    nodes.map((n) => {
      const t = translated.get(n.id);
      const copy: PageNode = { ...n, pages: rebuild(n.pages), updatedAt: now };
      if (t) {
        copy.title = t.title || n.title;
        copy.content = putMarkdown(tx, space.id, t.markdown);
      }
      return copy;
    });
  const revision = commitRevision(tx, ctx, space.id, [space.revision], { pages: rebuild(content.tree), files: content.files, message: 'Translation' });
  tx.put(Spaces, { ...space, title: spaceTitle(content.title), revision: revision.id, updatedAt: now });
  return revision as unknown as RevisionRecord;
}

/** A translated title made to fit a space title (1 to 50 characters). */
export function spaceTitle(title: string): string {
  const t = title.replace(/\s+/g, ' ').trim();
  if (!t) return 'Untitled';
  return t.length <= SPACE_TITLE_MAX ? t : t.slice(0, SPACE_TITLE_MAX - 1).trimEnd() + '…';
}

/** Words of a text, as stats count them. */
export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
}
