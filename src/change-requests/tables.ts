import { table } from '../store/port.js';
import type { ChangeRequestRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): another area reads these rows by
// importing a handle from here, an import the layering test checks. Change requests (reviews and review requests: ./reviews.ts).
// The second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const ChangeRequests = table<ChangeRequestRecord, 'space'>('changeRequests');
