import type { FontFormat } from '../kernel/font-format.js';
import type { RevisionRecord } from '../spaces/model.js';

// A space's content is a chain of immutable revisions, stored like Git objects:
// - a page body (markdown) is a `pageContents` row addressed by its SHA-256 (`<space>:<sha>`);
// - a page's metadata is a `pageNodes` row addressed by the hash of the metadata, the body's
//   hash and its children's node hashes (a Merkle tree: `<space>:<hash>`);
// - a revision row holds only the hash of its root node (whose children are the root pages), and its files.
// Revisions share every node and body that did not change: editing one page writes its body,
// its node and the nodes of its ancestors (and a revision listing the root), never a copy of
// every page. File bytes are blobs beside the store (`<data>/files/<sha>`), never in JSON.

export type PageKind = 'document' | 'group' | 'link';

export type MetaLinkTarget = { kind: 'page'; page: string; space?: string } | { kind: 'url'; url: string };
export interface PageMetaLinks {
  canonical?: MetaLinkTarget;
  alternates?: MetaLinkTarget[];
}

export interface PageNode {
  id: string;
  type: PageKind;
  title: string;
  slug: string;
  /** SHA-256 (hex) of the markdown body, a `pageContents` row; document pages only. */
  content?: string;
  /**
   * The file the body was made from, as a docs-as-code push sent it (`source` of an
   * insert_page/update_page change, an extension): `text` is the SHA-256 of a `pageContents` row
   * holding it byte for byte, `body` the `content` it produced. Current while `body === content`
   * (an edit of the body by any other means leaves it stale); `docs content pull` writes it back
   * instead of markdown made from the body, so the round trip keeps every byte.
   */
  source?: {
    text: string;
    body: string;
    /** What its links depended on when written (push-context.ts): a push then compares it by its file's hash. */
    links?: SourceLinks;
  };
  description?: string;
  emoji?: string;
  icon?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  condition?: string;
  /**
   * The page's meta links (0.202.0's RevisionPageMetaLinks; docs/manual/content.md#meta-links): the
   * canonical address search engines should index it under, and its alternates (the same page in
   * another language or place). Set by insert_page/update_page `metaLinks`, rendered by the
   * published page as `<link rel="canonical">` and `<link rel="alternate">`.
   */
  metaLinks?: PageMetaLinks;
  /** Link pages: where they point. */
  href?: string;
  target?: { kind: 'url'; url: string } | { kind: 'page'; page: string } | { kind: 'anchor'; page: string; anchor: string } | { kind: 'file'; file: string };
  createdAt: string;
  updatedAt: string;
  pages: PageNode[];
}

/** Of a path: 0 no page, 1 a page without subpages, 2 a page with subpages. */
export type PathState = 0 | 1 | 2;

/**
 * What a pushed page's links depended on when its body was written from its file (push-context.ts):
 * a push then tells the page unchanged by the file's SHA-256 alone while all of it still holds.
 */
export interface SourceLinks {
  /** The page's own path and state when written. */
  at: [string, PathState];
  /** Paths its links name (lexically, or as the stored ids' paths), and their state then. */
  paths: [string, PathState][];
  /** File names its links name, and whether the space had them then (1) or not (0). */
  names: [string, 0 | 1][];
  /** The pages its stored body names by id, and their paths then. */
  pages: [string, string][];
  /** The files its stored body names by id, and their names then. */
  files: [string, string][];
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

/**
 * A reusable content block of a revision (docs/manual/reusable-content.md): defined once in a
 * space, included in pages by `{% include "/reusable/<id>" %}` (the stored form). Its body is a
 * `pageContents` row like a page's (its `document` id in the API is that body's SHA-256).
 */
export interface ReusableEntry {
  id: string;
  title: string;
  /** SHA-256 (hex) of the markdown body, a `pageContents` row. */
  content: string;
  createdAt: string;
  updatedAt: string;
}

/** A revision with content. The initial revision of a space has no `pages`/`files` (empty). */
export interface ContentRevision extends Omit<RevisionRecord, 'type'> {
  /** `update`: a change request's revision bringing in the space's content (POST .../update). */
  type: 'edits' | 'merge' | 'update';
  /**
   * The hash of the revision's root node: a `pageNodes` row whose children are the root pages.
   * One hash, not the list of root pages, so that a revision row stays small however many root
   * pages a space has (a 1,000-section space wrote 25 KB per revision when it held the list).
   */
  rootNode?: string;
  /** Revisions written before `rootNode`: the node hashes of the root pages. */
  root?: string[];
  files?: FileEntry[];
  /** Reusable content blocks (absent: none). */
  reusable?: ReusableEntry[];
  message?: string;
  /** Merge revisions: the change request merged. */
  mergedFrom?: string;
  /** Who wrote the revision (revisions written before this field existed have none). */
  author?: string;
  /** The change request the revision was authored in (a content batch or a template there). */
  changeRequest?: string;
}

export interface PageContentRecord {
  /** `<space>:<sha>`: embeds the space, so duplicating a space keeps the address shape. */
  id: string;
  space: string;
  markdown: string;
  /**
   * Where its links are (link-index.ts), computed when it was written, bound to the markdown's
   * SHA-256. Absent on bodies written before it existed, or by merges and translations.
   */
  links?: { sha: string; spans: number[] };
}

/** A page's metadata in the Merkle tree: PageNode without children, plus their node hashes. */
export interface PageNodeRecord {
  id: string;
  space: string;
  node: Omit<PageNode, 'pages'>;
  children: string[];
}

/**
 * The push digest of a space's page tree (src/push-digest.ts), derived from its nodes and kept
 * (id: the space) for the pushes that find the folder unchanged: `tree` names the tree it was
 * made from (`treeKeyOf`), so a kept digest is used only while the space's tree is that one.
 */
export interface PushDigestRecord {
  id: string;
  space: string;
  tree: string;
  /**
   * The digest's pages (src/push-digest.ts DigestPage[]) as JSON text: one string for the store to
   * load, hash and count, not ~30,000 small objects and arrays to walk and freeze (a 1,000-page
   * tree), parsed by the route that gives them.
   */
  pages: string;
}

/**
 * What changed in the kept digest (PushDigestRecord, tree `base`) to make the digest of tree
 * `tree`, when only pages' own fields did (src/push-digest.ts): a merge of a one-line change
 * writes the page's entry (and its ancestors'), not the 2,000 pages' digest again (~0.8 MB).
 */
export interface PushDigestPatchRecord {
  id: string;
  space: string;
  base: string;
  tree: string;
  /** JSON text: page id -> its DigestPage without `pages`, as the tree `tree` gives it. */
  entries: string;
}

/**
 * What names a revision's page tree: its space and its root node's hash (a Merkle hash), or the
 * revision for trees written before root nodes. The space is in it because a duplicate's nodes
 * keep their hashes while their page ids change (src/spaces/content-rows.ts copies rows as they are).
 */
export const treeKeyOf = (rev: { id: string; space: string; rootNode?: string }) =>
  rev.rootNode !== undefined ? `${rev.space}#${rev.rootNode}` : `${rev.space}/${rev.id}`;

/** What navigation shows of a page (nav.ts): its node without body, source, dates or meta links. */
export type NavFields = Pick<PageNode, 'id' | 'type' | 'title' | 'slug' | 'emoji' | 'hidden' | 'condition' | 'href' | 'target'>;

/** A subpage as its parent's navigation row lists it. */
export interface NavKid {
  /** Its node hash (a `pageTreeNodes` row, and its own navigation row when it has subpages). */
  h: string;
  /** How many subpages it has (0: none, so no navigation row). */
  n: number;
  /** 1 when a page below it has a condition. */
  c?: 1;
  node: NavFields;
}

/**
 * The navigation row of a node with subpages (or of a revision's root node), addressed like the
 * node (`<space>:<hash>`): its subpages as navigation shows them, so that finding a page by path,
 * its sidebar and its neighbours read the rows of its ancestors, never the space's tree.
 */
export interface PageNavRecord {
  id: string;
  space: string;
  kids: NavKid[];
  /** Pages below it (all levels). */
  count: number;
  /** 1 when a page below it (any level) is hidden; when one has a condition. */
  hidden?: 1;
  conditional?: 1;
}

export const contentRowId = (space: string, sha: string) => `${space}:${sha}`;

/** A signed upload URL of generateStorageUploadURL and what it received (src/content/storage.ts). */
export type StorageKind = 'customization_font' | 'import_file' | 'organization_file';

export interface StorageUploadRecord {
  id: string;
  organization: string;
  kind: StorageKind;
  name: string;
  type: string;
  size: number;
  expiresAt: string;
  createdAt: string;
  createdBy: string;
  /** Set by the one upload the URL takes. */
  sha?: string;
  /** A font's format, read from its bytes when it came (kind `customization_font`). */
  format?: FontFormat;
  uploadedAt?: string;
}
