import { table } from '../store/port.js';
import type { ContentRevision, PageContentRecord, PageNodeRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): another area reads these rows by
// importing a handle from here, an import the layering test checks. A space's revisions (the initial one is written by spaces/, through `createInitialRevision`'s caller), page bodies and page nodes.
// The second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const Revisions = table<ContentRevision, 'space' | 'changeRequest'>('revisions');
export const PageContents = table<PageContentRecord, 'space'>('pageContents');
export const PageNodes = table<PageNodeRecord, 'space'>('pageNodes');
