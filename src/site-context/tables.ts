import { table } from '../store/port.js';
import type { ContextConnectionRecord, ContextRecordRow } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): another area reads these rows by
// importing a handle from here, an import the layering test checks.
// The second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const ContextConnections = table<ContextConnectionRecord, 'organization' | 'site'>('contextConnections');
export const ContextRecords = table<ContextRecordRow, 'site' | 'connection' | 'key'>('contextRecords');
