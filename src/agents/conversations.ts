import type { Caller, Context } from '../kernel/context.js';
import { conflict, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { membershipOf, requireOrgRole } from '../organizations/service.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { agentConversationKey, type AgentConversationRecord } from './model.js';
import { AgentConversations } from './tables.js';

// Conversations with the organization agent (0.202.0; docs/manual/agents.md#organization-agent-conversations).
// A conversation is its creator's alone, as the contract says ("never visible to anyone else"):
// the list shows the caller's own, and renaming or deleting addresses the caller's own by its
// client id, so no one (an admin neither) reads, renames or deletes another's. Any member with a
// role may hold conversations (a guest may not: the agent works across the organization's content).
// This server runs no agent and receives no messages, so provisioning (PUT) records the
// conversation at once (GitBook waits for a first message): a conversation that was provisioned
// exists until it is deleted. A second PUT refreshes it and changes nothing shown.

export const CONVERSATION_ID_MAX = 128;
export const TITLE_MAX = 200;
/** The most conversations one user holds in one organization. */
export const CONVERSATIONS_MAX = 1000;

const ID = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

function holder(tx: ReadTx, organizationId: string, caller: Caller, action: string) {
  const { member } = membershipOf(tx, organizationId, caller);
  requireOrgRole(member, 'read', action);
  return member;
}

export function checkConversationId(id: string): void {
  if (id.length > CONVERSATION_ID_MAX || !ID.test(id))
    throw invalid(`conversationId: must be 1 to ${CONVERSATION_ID_MAX} letters, digits, '.', '_', ':' or '-', starting with a letter or digit`);
}

/** The caller's conversations, most recently updated first. */
export function conversationsOf(tx: ReadTx, organizationId: string, caller: Caller): AgentConversationRecord[] {
  holder(tx, organizationId, caller, 'holding agent conversations');
  return tx
    .find(AgentConversations, 'user', caller.userId)
    .filter((c) => c.organization === organizationId)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.createdAt.localeCompare(a.createdAt) || a.conversation.localeCompare(b.conversation));
}

function own(tx: ReadTx, organizationId: string, caller: Caller, id: string): AgentConversationRecord | undefined {
  return tx.find(AgentConversations, 'key', agentConversationKey(organizationId, caller.userId, id))[0];
}

export function provisionConversation(tx: WriteTx, ctx: Context, organizationId: string, caller: Caller, id: string): AgentConversationRecord {
  holder(tx, organizationId, caller, 'holding agent conversations');
  checkConversationId(id);
  const now = ctx.clock.now().toISOString();
  const existing = own(tx, organizationId, caller, id);
  if (existing) return tx.put(AgentConversations, { ...existing, provisionedAt: now });
  const held = tx.find(AgentConversations, 'user', caller.userId).filter((c) => c.organization === organizationId).length;
  if (held >= CONVERSATIONS_MAX)
    throw conflict(`conversationId: you hold ${CONVERSATIONS_MAX} agent conversations in this organization, the most there may be: delete one first`);
  return tx.put(AgentConversations, {
    id: newId(),
    organization: organizationId,
    user: caller.userId,
    conversation: id,
    key: agentConversationKey(organizationId, caller.userId, id),
    createdAt: now,
    updatedAt: now,
    provisionedAt: now,
  });
}

export function renameConversation(tx: WriteTx, ctx: Context, organizationId: string, caller: Caller, id: string, title: string): AgentConversationRecord {
  holder(tx, organizationId, caller, 'holding agent conversations');
  const existing = own(tx, organizationId, caller, id);
  if (!existing) throw notFound(`agent conversation ${id} not found`);
  const clean = title.trim();
  if (!clean) throw invalid('title: must not be blank');
  if (clean.length > TITLE_MAX) throw invalid(`title: must be at most ${TITLE_MAX} characters`);
  return tx.put(AgentConversations, { ...existing, title: clean, updatedAt: ctx.clock.now().toISOString() });
}

/** Deletes the caller's conversation; 404 when they have none by that id (0.202.0 has no 204 here). */
export function deleteConversation(tx: WriteTx, organizationId: string, caller: Caller, id: string): void {
  holder(tx, organizationId, caller, 'holding agent conversations');
  const existing = own(tx, organizationId, caller, id);
  if (!existing) throw notFound(`agent conversation ${id} not found`);
  tx.delete(AgentConversations, existing.id);
}
