import { table } from '../store/port.js';
import type { AgentConversationRecord, AgentTaskRecord, ChangeRequestConversationRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): another area reads these rows by
// importing a handle from here, an import the layering test checks. What people decided about
// agent tasks (in the organization's conversations shard, beside the clusters they follow), and
// organization agent conversations (in the organization's shard).
// The second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const AgentTasks = table<AgentTaskRecord, 'organization'>('agentTasks');
export const AgentConversations = table<AgentConversationRecord, 'organization' | 'key' | 'user'>('agentConversations');
// Change request conversations: with their change request, in its space's shard (so duplicating
// and purging a space carry them, src/spaces/content-rows.ts).
export const ChangeRequestConversations = table<ChangeRequestConversationRecord, 'space' | 'changeRequest'>('changeRequestConversations');
