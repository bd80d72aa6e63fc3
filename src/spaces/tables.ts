import { table } from '../store/port.js';
import type { ContentRevision } from '../content/model.js';
import type { SpaceRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): another area reads these rows by
// importing a handle from here, an import the layering test checks. Spaces, and their revisions:
// this area writes a space's first revision, content/ the others; the row type is content's (a
// type import, which loads nothing).
// The second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const Spaces = table<SpaceRecord, 'parent'>('spaces');
export const Revisions = table<ContentRevision, 'space' | 'changeRequest'>('revisions');
