import type { Context } from '../kernel/context.js';
import { newId } from '../kernel/ids.js';
import type { WriteTx } from '../store/port.js';
import { assignCluster, leaveCluster } from './cluster.js';
import { extractIssues } from './extract.js';
import { ConversationIssues, Conversations } from './tables.js';

// The processing of one conversation, loaded by the worker only when there is work (it brings
// the stemmer and the stopword lists, which no request needs).

/**
 * Processes one conversation if it is still at `generation`: replaces its issues by those
 * extracted from its current content and files each into a cluster. Synchronous: run in one
 * write, so a reader sees the conversation either before or after, never half processed.
 */
export function processConversation(tx: WriteTx, ctx: Context, id: string, generation: number): boolean {
  const c = tx.get(Conversations, id);
  if (!c || c.generation !== generation || c.state === 'processed') return false;
  for (const old of tx.find(ConversationIssues, 'conversation', id)) {
    leaveCluster(tx, ctx, old);
    tx.delete(ConversationIssues, old.id);
  }
  const now = ctx.clock.now().toISOString();
  extractIssues(c).forEach((issue, index) => {
    const cluster = assignCluster(tx, ctx, c.organization, issue.terms);
    tx.put(ConversationIssues, {
      id: newId(),
      organization: c.organization,
      conversation: c.id,
      source: c.source,
      title: issue.title,
      summary: issue.summary,
      createdAt: c.createdAt,
      ingestedAt: c.ingestedAt,
      cluster: cluster.id,
      terms: issue.terms,
      display: issue.display,
      index,
    });
  });
  tx.put(Conversations, { ...c, state: 'processed', processedAt: now });
  return true;
}
