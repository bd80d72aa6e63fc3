import type { RevisionRecord } from '../spaces/model.js';

// A space's content is a chain of immutable revisions. A revision row holds its page tree
// compactly: ids, structure, metadata and, for document pages, the SHA-256 of the markdown.
// The markdown itself is a `pageContents` row addressed by that hash (`<space>:<sha>`), shared
// by every revision and page with the same text: an edit writes one new revision row (the tree,
// a few hundred bytes a page) and only the bodies that changed, never a copy of every page.
// File bytes are blobs beside the store (`<data>/files/<sha>`), never in JSON.

export type PageKind = 'document' | 'group' | 'link';

export interface PageNode {
  id: string;
  type: PageKind;
  title: string;
  slug: string;
  /** SHA-256 (hex) of the markdown body, a `pageContents` row; document pages only. */
  content?: string;
  description?: string;
  emoji?: string;
  icon?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  condition?: string;
  /** Link pages: where they point. */
  href?: string;
  target?: { kind: 'url'; url: string } | { kind: 'page'; page: string } | { kind: 'file'; file: string };
  createdAt: string;
  updatedAt: string;
  pages: PageNode[];
}

export interface FileEntry {
  id: string;
  name: string;
  contentType: string;
  size: number;
  /** SHA-256 (hex) of the bytes: the blob's name in `<data>/files/`. */
  sha: string;
  dimensions?: { width: number; height: number };
}

/** A revision with content. The initial revision of a space has no `pages`/`files` (empty). */
export interface ContentRevision extends Omit<RevisionRecord, 'type'> {
  type: 'edits' | 'merge';
  pages?: PageNode[];
  files?: FileEntry[];
  message?: string;
  /** Merge revisions: the change request merged. */
  mergedFrom?: string;
}

export interface PageContentRecord {
  /** `<space>:<sha>`: embeds the space, so duplicating a space keeps the address shape. */
  id: string;
  space: string;
  markdown: string;
}

export const contentRowId = (space: string, sha: string) => `${space}:${sha}`;
