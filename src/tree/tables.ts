import { table } from '../store/port.js';
import type { GrantRecord } from './grants.js';

// The tables this area owns (see Table in src/store/port.ts): another area reads these rows by
// importing a handle from here, an import the layering test checks. Grants of roles to users and
// teams on spaces, collections and sites (./grants.ts, docs/manual/permissions.md).
// The second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const Grants = table<GrantRecord, 'organization' | 'target'>('grants');
