import type { Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { SPACE_TITLE_MAX, type RevisionRecord, type SpaceRecord } from '../spaces/model.js';
import type { ReadTx, WriteTx } from '../store/port.js';

// The two places where a translation run meets space content. Everything else in a run (the
// translator, stats, status, the target space) is independent of how content is stored.
//
// What exists today: a space's metadata and its revisions (the initial, empty one); pages are
// not stored yet. So a run translates the space's title and writes a new revision of the target
// space. When page tables exist, these two functions are where pages are read and written:
// `readSourcePages` returns the pages of the source's current revision (`space.revision`), and
// `writeTranslatedPages` writes them into the new revision of the target (see README).

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
}

export type TranslatedPage = SourcePage;

/** The source space's current content; 404 when the space is gone (deleted or purged). */
export function readSourcePages(tx: ReadTx, spaceId: string): SourceContent {
  const space = tx.get<SpaceRecord>('spaces', spaceId);
  if (!space || space.deletedAt) throw notFound(`source.space: space ${spaceId} no longer exists`);
  // No page table exists yet: the current revision has no pages to read.
  return { title: space.title, revision: space.revision, pages: [] };
}

/**
 * Writes a translated copy into the target space as a new revision (parent: its current one),
 * which becomes the space's revision; the space takes the translated title. Returns the revision.
 */
export function writeTranslatedPages(tx: WriteTx, ctx: Context, targetSpaceId: string, content: { title: string; pages: TranslatedPage[] }): RevisionRecord {
  const space = tx.get<SpaceRecord>('spaces', targetSpaceId);
  if (!space) throw notFound(`space ${targetSpaceId} not found`);
  const now = ctx.clock.now().toISOString();
  // Pages would be written here, into `revision`, once the content tables exist (content.pages
  // is always empty until then: readSourcePages returns none).
  const revision = tx.put<RevisionRecord>('revisions', { id: newId(), space: space.id, parents: [space.revision], createdAt: now, type: 'edits' });
  tx.put<SpaceRecord>('spaces', { ...space, title: spaceTitle(content.title), revision: revision.id, updatedAt: now });
  return revision;
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
