import { table } from '../store/port.js';
import type { ClusterRecord, ConversationRecord, IssueRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): another area reads these rows by
// importing a handle from here, an import the layering test checks. Conversations, their issues and clusters.
// The second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const Conversations = table<ConversationRecord, 'organization' | 'key' | 'state'>('conversations');
export const ConversationIssues = table<IssueRecord, 'organization' | 'conversation' | 'cluster'>('conversationIssues');
export const ConversationClusters = table<ClusterRecord, 'organization'>('conversationClusters');
