import type { ChangeRequestRecord } from '../change-requests/model.js';
import { readChangeRequest } from '../change-requests/service.js';
import type { Caller, Context } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { visibleSpace } from '../spaces/service.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { requireLevel } from '../tree/access.js';
import { TITLE_MAX } from './conversations.js';
import type { ChangeRequestConversationRecord } from './model.js';
import { ChangeRequestConversations } from './tables.js';

// Change request conversations (0.202.0; docs/manual/agents.md#change-request-conversations): the
// sessions of this server's agent that contributed to a change request's draft. No operation
// creates one: the agent records one when it opens or edits a change request on a person's behalf
// (an agent task started, a style guide run's fix draft, a site finding's change request), with
// `recordChangeRequestConversation`, in the same transaction as the change request it wrote.
// Unlike organization agent conversations (private to their creator), these are shared, as the
// contract's default says ("shared with everyone who has access to its context"): whoever can
// read the change request lists them; renaming and deleting them is a write on the change
// request, so it takes `edit` on its space, the level that edits the change request itself.

/** The most conversations one change request keeps: beyond, the least recently updated goes. */
export const CR_CONVERSATIONS_MAX = 100;
/** The id of a change request's first conversation, as GitBook names it. */
export const DEFAULT_CONVERSATION = 'default';

export interface RecordInput {
  changeRequest: ChangeRequestRecord;
  /** The person the agent acted for. */
  user: string;
  /** What made the agent act (`agent-task:<id>`, `styleguide-run:<id>`, `site-finding:<id>`). */
  origin: string;
  title: string;
  /** The conversation's id; `default` unless the caller keeps several apart. */
  conversation?: string;
}

/**
 * Records (or continues) the agent's conversation in a change request, in the transaction that
 * wrote it. A conversation of that id already there is continued: its `updatedAt` moves, its title
 * (perhaps renamed by a person) stays. Callers have checked the caller's rights on the change request.
 */
export function recordChangeRequestConversation(tx: WriteTx, ctx: Context, input: RecordInput): ChangeRequestConversationRecord {
  const now = ctx.clock.now().toISOString();
  const id = input.conversation ?? DEFAULT_CONVERSATION;
  const cr = input.changeRequest;
  const held = tx.find(ChangeRequestConversations, 'changeRequest', cr.id);
  const existing = held.find((c) => c.conversation === id);
  if (existing) return tx.put(ChangeRequestConversations, { ...existing, updatedAt: now });
  if (held.length >= CR_CONVERSATIONS_MAX) tx.delete(ChangeRequestConversations, byRecency(held).at(-1)!.id);
  return tx.put(ChangeRequestConversations, {
    id: newId(),
    space: cr.space,
    changeRequest: cr.id,
    conversation: id,
    user: input.user,
    origin: input.origin,
    title: cleanTitle(input.title.slice(0, TITLE_MAX)) ?? input.origin,
    createdAt: now,
    updatedAt: now,
  });
}

const byRecency = (list: ChangeRequestConversationRecord[]) =>
  [...list].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.createdAt.localeCompare(a.createdAt) || a.conversation.localeCompare(b.conversation));

const cleanTitle = (t: string) => t.trim() || undefined;

/** The change request's conversations, most recently updated first: whoever can read it sees them. */
export function conversationsOfChangeRequest(tx: ReadTx, caller: Caller, spaceId: string, crId: string): ChangeRequestConversationRecord[] {
  const { cr } = readChangeRequest(tx, caller, spaceId, crId);
  return byRecency(tx.find(ChangeRequestConversations, 'changeRequest', cr.id));
}

/** The conversation for a rename or a delete: 404 for an unknown id or one of another change request, 403 below `edit`. */
function editable(tx: ReadTx, caller: Caller, spaceId: string, crId: string, id: string, action: string): ChangeRequestConversationRecord {
  const { cr } = readChangeRequest(tx, caller, spaceId, crId);
  const found = tx.find(ChangeRequestConversations, 'changeRequest', cr.id).find((c) => c.conversation === id);
  if (!found) throw notFound(`conversation ${id} not found in change request ${cr.number} of space ${spaceId}`);
  requireLevel(visibleSpace(tx, caller, spaceId).level, 'edit', `${action} conversations of change requests of space ${spaceId}`, `space ${spaceId}`);
  return found;
}

export function renameChangeRequestConversation(
  tx: WriteTx,
  ctx: Context,
  caller: Caller,
  spaceId: string,
  crId: string,
  id: string,
  title: string,
): ChangeRequestConversationRecord {
  const found = editable(tx, caller, spaceId, crId, id, 'renaming');
  const clean = cleanTitle(title);
  if (!clean) throw invalid('title: must not be blank');
  if (clean.length > TITLE_MAX) throw invalid(`title: must be at most ${TITLE_MAX} characters`);
  return tx.put(ChangeRequestConversations, { ...found, title: clean, updatedAt: ctx.clock.now().toISOString() });
}

export function deleteChangeRequestConversation(tx: WriteTx, caller: Caller, spaceId: string, crId: string, id: string): void {
  tx.delete(ChangeRequestConversations, editable(tx, caller, spaceId, crId, id, 'deleting').id);
}
