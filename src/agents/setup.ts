import { requireReader } from '../conversations/service.js';
import { ConversationClusters, ConversationIssues, Conversations } from '../conversations/tables.js';
import type { Caller, Context } from '../kernel/context.js';
import type { ReadTx } from '../store/port.js';
import { allTasks } from './tasks.js';

// The agents setup state (getAgentSetupState), computed from the organization's real state at
// every read: its agent tasks by status, and what the conversations engine holds (conversations,
// issues, clusters, and conversations per source: `integration:api:<userId>` for each user token
// that ingested, docs/manual/conversations.md). This server has no inbox: `email` is empty, and
// conversations arrive through ingestConversation (docs/manual/agents.md#setup-state).

export interface SetupState {
  email: string;
  stats: {
    backlogTasks: number;
    startedTasks: number;
    completedTasks: number;
    canceledTasks: number;
    conversations: number;
    issues: number;
    issuesClusters: number;
    sources: Record<string, number>;
  };
  settings: Record<string, never>;
}

export function setupState(tx: ReadTx, ctx: Context, organizationId: string, caller: Caller): SetupState {
  requireReader(tx, organizationId, caller);
  const conversations = tx.find(Conversations, 'organization', organizationId);
  const sources: Record<string, number> = {};
  for (const c of conversations) sources[c.source] = (sources[c.source] ?? 0) + 1;
  const tasks = allTasks(tx, ctx, organizationId);
  const count = (s: string) => tasks.filter((t) => t.status === s).length;
  return {
    email: '',
    stats: {
      backlogTasks: count('backlog'),
      startedTasks: count('started'),
      completedTasks: count('completed'),
      canceledTasks: count('canceled'),
      conversations: conversations.length,
      issues: tx.find(ConversationIssues, 'organization', organizationId).length,
      issuesClusters: tx.find(ConversationClusters, 'organization', organizationId).length,
      sources: Object.fromEntries(Object.entries(sources).sort(([a], [b]) => a.localeCompare(b))),
    },
    settings: {},
  };
}
