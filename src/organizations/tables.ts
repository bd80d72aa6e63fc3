import { table } from '../store/port.js';
import type { MemberRecord, OrganizationRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): another area reads these rows by
// importing a handle from here, an import the layering test checks. Organizations and their members.
// The second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const Organizations = table<OrganizationRecord, 'hostname'>('organizations');
export const Members = table<MemberRecord, 'organization' | 'user'>('members');
