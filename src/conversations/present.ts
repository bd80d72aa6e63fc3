import type { ResponseBody, Schema } from '../contract/types.js';
import { apiUrl, type Context } from '../kernel/context.js';
import { clusterFacts } from './cluster.js';
import type { ClusterRecord, ConversationRecord, IssueRecord } from './model.js';

const orgPath = (organization: string) => `/orgs/${organization}`;

export function presentConversation(ctx: Context, c: ConversationRecord): Schema<'Conversation'> {
  return {
    object: 'conversation' as const,
    id: c.id,
    ...(c.subject !== undefined ? { subject: c.subject } : {}),
    createdAt: c.createdAt,
    ...(c.processedAt ? { processedAt: c.processedAt } : {}),
    source: c.source,
    urls: {
      location: apiUrl(ctx, `${orgPath(c.organization)}/conversations/${c.id}`),
      ...(c.metadata.url ? { source: c.metadata.url } : {}),
    },
  };
}

/** `{conversation, parts, metadata}` of getConversationById. */
export function presentConversationDetail(ctx: Context, c: ConversationRecord): ResponseBody<'getConversationById', '200'> {
  return { conversation: presentConversation(ctx, c), parts: c.parts, metadata: c.metadata };
}

export function presentIssue(ctx: Context, i: IssueRecord): Schema<'ConversationIssue'> {
  return {
    object: 'conversation-issue' as const,
    id: i.id,
    title: i.title,
    summary: i.summary,
    createdAt: i.createdAt,
    ingestedAt: i.ingestedAt,
    conversation: i.conversation,
    cluster: i.cluster,
    urls: { location: apiUrl(ctx, `${orgPath(i.organization)}/conversations-issues/${i.id}`) },
  };
}

export function presentIssueWithConversation(
  ctx: Context,
  x: { issue: IssueRecord; conversation: ConversationRecord },
): ResponseBody<'getConversationIssueById', '200'> {
  return { issue: presentIssue(ctx, x.issue), conversation: presentConversation(ctx, x.conversation) };
}

/** A cluster's agent tasks by status (src/agents/tasks.ts: at most one per cluster), as its stats count them. */
export interface TaskCounts {
  tasksTotal: number;
  tasksBacklog: number;
  tasksStarted: number;
  tasksCompleted: number;
  tasksCancelled: number;
}
export const NO_TASKS: TaskCounts = { tasksTotal: 0, tasksBacklog: 0, tasksStarted: 0, tasksCompleted: 0, tasksCancelled: 0 };

export function presentCluster(ctx: Context, c: ClusterRecord, issues: IssueRecord[], tasks: TaskCounts = NO_TASKS): Schema<'ConversationsIssuesCluster'> {
  const facts = clusterFacts(c, issues, ctx.clock.now());
  return {
    object: 'issues-cluster' as const,
    id: c.id,
    label: facts.label,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    icon: 'comments',
    summary: facts.summary,
    weeklyPulse: facts.weeklyPulse,
    sources: facts.sources,
    stats: { ...facts.stats, ...tasks },
    urls: {
      location: apiUrl(ctx, `${orgPath(c.organization)}/conversations-clusters/${c.id}`),
      app: `${ctx.baseUrl}/o/${c.organization}/conversations/clusters/${c.id}`,
    },
  };
}
