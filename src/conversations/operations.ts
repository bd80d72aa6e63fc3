import { tasksOf } from '../agents/tasks.js';
import type { Caller, Context } from '../kernel/context.js';
import { defineOperation } from '../kernel/operation.js';
import type { ReadTx } from '../store/port.js';
import { paginate } from '../kernel/pagination.js';
import type { ClusterRecord } from './model.js';
import { NO_TASKS, presentCluster, presentConversation, type TaskCounts, presentConversationDetail, presentIssueWithConversation } from './present.js';
import { kickConversationProcessing } from './processor.js';
import { clustersFor, getCluster, getConversation, conversationsOf, getIssue, ingest, issuesOfCluster, listIssues } from './service.js';

export const ingestConversation = defineOperation('ingestConversation', async ({ ctx, caller, path, body }) => {
  // The caller's right first (inside `ingest`), then the batch's rules: an outsider learns
  // nothing from them.
  await ctx.store.write((tx) => ingest(tx, ctx, path.organizationId, caller, body));
  kickConversationProcessing(ctx);
  return { status: 204 };
});

export const listConversations = defineOperation('listConversations', async ({ ctx, caller, path, query }) => {
  const list = await ctx.store.read((tx) => conversationsOf(tx, path.organizationId, caller, query.source));
  return { status: 200, body: paginate(list, query, (c) => presentConversation(ctx, c)) };
});

export const getConversationById = defineOperation('getConversationById', async ({ ctx, caller, path }) => {
  const c = await ctx.store.read((tx) => getConversation(tx, path.organizationId, caller, path.conversationId));
  return { status: 200, body: presentConversationDetail(ctx, c) };
});

export const listConversationsIssues = defineOperation('listConversationsIssues', async ({ ctx, caller, path, query }) => {
  const list = await ctx.store.read((tx) => listIssues(tx, path.organizationId, caller, { cluster: query.cluster, conversation: query.conversation }));
  return { status: 200, body: paginate(list, query, (x) => presentIssueWithConversation(ctx, x)) };
});

export const getConversationIssueById = defineOperation('getConversationIssueById', async ({ ctx, caller, path }) => {
  const x = await ctx.store.read((tx) => getIssue(tx, path.organizationId, caller, path.issueId));
  return { status: 200, body: presentIssueWithConversation(ctx, x) };
});

/** The clusters' agent tasks by status, as the caller sees them (src/agents/tasks.ts: one task per cluster at most). */
function taskCounts(tx: ReadTx, ctx: Context, organizationId: string, caller: Caller, cluster?: string): (id: string) => TaskCounts {
  const counts = new Map<string, TaskCounts>();
  for (const t of tasksOf(tx, ctx, organizationId, caller, cluster !== undefined ? { cluster } : {}))
    counts.set(t.cluster.id, {
      tasksTotal: 1,
      tasksBacklog: t.status === 'backlog' ? 1 : 0,
      tasksStarted: t.status === 'started' ? 1 : 0,
      tasksCompleted: t.status === 'completed' ? 1 : 0,
      tasksCancelled: t.status === 'canceled' ? 1 : 0,
    });
  return (id) => counts.get(id) ?? NO_TASKS;
}

export const listConversationsIssuesClusters = defineOperation('listConversationsIssuesClusters', async ({ ctx, caller, path, query }) => {
  const { list, tasks } = await ctx.store.read((tx) => {
    const tasks = taskCounts(tx, ctx, path.organizationId, caller);
    return { list: clustersFor(tx, path.organizationId, caller, { ...query, tasks }), tasks };
  });
  return { status: 200, body: paginate(list, query, ({ cluster, issues }) => presentCluster(ctx, cluster, issues, tasks(cluster.id))) };
});

export const getConversationsIssuesCluster = defineOperation('getConversationsIssuesCluster', async ({ ctx, caller, path }) => {
  const { cluster, issues, tasks } = await ctx.store.read((tx) => {
    const cluster: ClusterRecord = getCluster(tx, path.organizationId, caller, path.clusterId);
    return { cluster, issues: issuesOfCluster(tx, cluster.id), tasks: taskCounts(tx, ctx, path.organizationId, caller, cluster.id)(cluster.id) };
  });
  return { status: 200, body: presentCluster(ctx, cluster, issues, tasks) };
});
