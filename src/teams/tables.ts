import { table } from '../store/port.js';
import type { TeamMemberRecord, TeamRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): another area reads these rows by
// importing a handle from here, an import the layering test checks. Teams and their members.
// The second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const Teams = table<TeamRecord, 'organization'>('teams');
export const TeamMembers = table<TeamMemberRecord, 'team' | 'user'>('teamMembers');
