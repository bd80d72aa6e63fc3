import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { purgeIfExpired } from '../space-expiry.js';
import { conversationsOf, deleteConversation, provisionConversation, renameConversation } from './conversations.js';
import { conversationsOfChangeRequest, deleteChangeRequestConversation as deleteCrConversation, renameChangeRequestConversation } from './cr-conversations.js';
import { presentAgentConversation, presentAgentTask, presentChangeRequestConversation } from './present.js';
import { setupState } from './setup.js';
import { getTask, tasksOf, updateTask, type TaskStatus } from './tasks.js';

export const getAgentSetupState = defineOperation('getAgentSetupState', async ({ ctx, caller, path }) => {
  const body = await ctx.store.read((tx) => setupState(tx, ctx, path.organizationId, caller));
  return { status: 200, body };
});

export const listAgentTasks = defineOperation('listAgentTasks', async ({ ctx, caller, path, query }) => {
  const status = query.status === undefined ? undefined : ((Array.isArray(query.status) ? query.status : [query.status]) as TaskStatus[]);
  const list = await ctx.store.read((tx) => tasksOf(tx, ctx, path.organizationId, caller, { cluster: query.cluster, space: query.space, status }));
  return { status: 200, body: paginate(list, query, (t) => presentAgentTask(ctx, t)) };
});

export const getAgentTask = defineOperation('getAgentTask', async ({ ctx, caller, path }) => {
  const task = await ctx.store.read((tx) => getTask(tx, ctx, path.organizationId, caller, path.agentTaskId));
  return { status: 200, body: presentAgentTask(ctx, task) };
});

export const updateAgentTask = defineOperation('updateAgentTask', async ({ ctx, caller, path, body }) => {
  const task = await ctx.store.write((tx) => updateTask(tx, ctx, path.organizationId, caller, path.agentTaskId, body.status));
  return { status: 200, body: presentAgentTask(ctx, task) };
});

export const listOrganizationAgentConversations = defineOperation('listOrganizationAgentConversations', async ({ ctx, caller, path, query }) => {
  const list = await ctx.store.read((tx) => conversationsOf(tx, path.organizationId, caller));
  return { status: 200, body: paginate(list, query, presentAgentConversation) };
});

export const provisionOrganizationAgentConversation = defineOperation('provisionOrganizationAgentConversation', async ({ ctx, caller, path }) => {
  await ctx.store.write((tx) => provisionConversation(tx, ctx, path.organizationId, caller, path.conversationId));
  return { status: 204 };
});

export const updateOrganizationAgentConversation = defineOperation('updateOrganizationAgentConversation', async ({ ctx, caller, path, body }) => {
  const c = await ctx.store.write((tx) => renameConversation(tx, ctx, path.organizationId, caller, path.conversationId, body.title));
  return { status: 200, body: presentAgentConversation(c) };
});

export const deleteOrganizationAgentConversation = defineOperation('deleteOrganizationAgentConversation', async ({ ctx, caller, path }) => {
  await ctx.store.write((tx) => deleteConversation(tx, path.organizationId, caller, path.conversationId));
  return { status: 205 };
});

// The agent's conversations in a change request (docs/manual/agents.md#change-request-conversations).
export const listChangeRequestConversations = defineOperation('listChangeRequestConversations', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const list = await ctx.store.read((tx) => conversationsOfChangeRequest(tx, caller, path.spaceId, path.changeRequestId));
  return { status: 200, body: paginate(list, query, presentChangeRequestConversation) };
});

export const updateChangeRequestConversation = defineOperation('updateChangeRequestConversation', async ({ ctx, caller, path, body }) => {
  await purgeIfExpired(ctx, path.spaceId);
  const c = await ctx.store.write((tx) =>
    renameChangeRequestConversation(tx, ctx, caller, path.spaceId, path.changeRequestId, path.conversationId, body.title),
  );
  return { status: 200, body: presentChangeRequestConversation(c) };
});

export const deleteChangeRequestConversation = defineOperation('deleteChangeRequestConversation', async ({ ctx, caller, path }) => {
  await purgeIfExpired(ctx, path.spaceId);
  await ctx.store.write((tx) => deleteCrConversation(tx, caller, path.spaceId, path.changeRequestId, path.conversationId));
  return { status: 205 };
});
