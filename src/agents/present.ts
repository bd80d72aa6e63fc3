import type { Schema } from '../contract/types.js';
import { apiUrl, type Context } from '../kernel/context.js';
import type { AgentConversationRecord, ChangeRequestConversationRecord } from './model.js';
import { instructionsOf, type Task } from './tasks.js';

export function presentAgentTask(ctx: Context, t: Task): Schema<'AgentTask'> {
  return {
    object: 'agent-task' as const,
    id: t.id,
    title: t.title,
    description: t.description,
    // Built of paragraphs and a list of text leaves (tasks.ts): a JSONDocument in both shapes.
    instructions: instructionsOf(t) as Schema<'AgentTask'>['instructions'],
    status: t.status,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    cluster: t.cluster.id,
    space: t.space,
    ...(t.changeRequest ? { changeRequest: t.changeRequest.id } : {}),
    urls: {
      location: apiUrl(ctx, `/orgs/${t.organization}/agent-tasks/${t.id}`),
      app: `${ctx.baseUrl}/o/${t.organization}/agents/tasks/${t.id}`,
    },
  };
}

/** The contract's AgentConversation: private to its creator (`shared: false`), never attached to a change request here. */
export function presentAgentConversation(c: AgentConversationRecord): Schema<'AgentConversation'> {
  return {
    object: 'agent-conversation' as const,
    id: c.conversation,
    ...(c.title !== undefined ? { title: c.title } : {}),
    shared: false,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

/** A change request conversation: shared with whoever reads the change request; `changeRequest` absent (it is the context). */
export function presentChangeRequestConversation(c: ChangeRequestConversationRecord): Schema<'AgentConversation'> {
  return {
    object: 'agent-conversation' as const,
    id: c.conversation,
    title: c.title,
    shared: true,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}
