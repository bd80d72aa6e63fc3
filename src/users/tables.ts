import { table } from '../store/port.js';
import type { UserRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): another area reads these rows by
// importing a handle from here, an import the layering test checks. Users of the installation (root shard), found by email.
// The second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const Users = table<UserRecord, 'email'>('users');
