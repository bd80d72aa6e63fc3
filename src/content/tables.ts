import { table } from '../store/port.js';
import type { PageContentRecord, PageNavRecord, PageNodeRecord, PushDigestPatchRecord, PushDigestRecord, StorageUploadRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): another area reads these rows by
// importing a handle from here, an import the layering test checks. Page bodies and page nodes
// (revisions are a table of spaces/, which writes a space's first one).
// The second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const PageContents = table<PageContentRecord, 'space'>('pageContents');
/** Page nodes, in the space's node group (`space/<id>/n`): read them through nodes.ts. */
export const PageNodes = table<PageNodeRecord, 'space'>('pageTreeNodes');
/** Page nodes as stores written before the node group kept them (among the bodies): read only. */
export const LegacyPageNodes = table<PageNodeRecord, 'space'>('pageNodes');
/** The push digest of a space's current page tree, kept for the next push (src/push-digest.ts): one row per space. */
export const PushDigests = table<PushDigestRecord, 'space'>('pushDigests');
/** The pages changed since the kept push digest, when only their own fields did (src/push-digest.ts): one row per space. */
export const PushDigestPatches = table<PushDigestPatchRecord, 'space'>('pushDigestPatches');
/** Navigation rows of nodes with subpages, by node hash (`space/<id>/v`, nav.ts). */
export const PageNavs = table<PageNavRecord, 'space'>('pageNavs');
export const StorageUploads = table<StorageUploadRecord, 'organization'>('storageUploads');
