import type { Caller, Context } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { MemberRecord } from '../organizations/model.js';
import { membershipOf, requireOrgRole } from '../organizations/service.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { clustersOf } from './cluster.js';
import type { TaskCounts } from './present.js';
import type { ClusterRecord, ConversationMetadata, ConversationPart, ConversationRecord, IssueRecord } from './model.js';
import { ConversationClusters, ConversationIssues, Conversations } from './tables.js';

export const MAX_BATCH = 1000;

export interface ConversationInput {
  id: string;
  metadata?: ConversationMetadata;
  subject?: string;
  parts: ConversationPart[];
}

/**
 * Ingestion is the organization's `ingestConversations` permission: admins only (the contract
 * reserves it to integration installations; here an admin's token stands for one).
 */
export function requireIngest(tx: ReadTx, organizationId: string, caller: Caller): MemberRecord {
  const { member } = membershipOf(tx, organizationId, caller);
  requireOrgRole(member, 'admin', 'ingesting conversations');
  return member;
}

/** Reading conversations, issues and clusters: every member but guests (they may hold customer messages). */
export function requireReader(tx: ReadTx, organizationId: string, caller: Caller): MemberRecord {
  const { member } = membershipOf(tx, organizationId, caller);
  requireOrgRole(member, 'read', 'reading conversations');
  return member;
}

/** The conversation source of a caller: a user token is the pseudo-integration `api`, installed as that user. */
export const sourceOf = (caller: Caller) => `integration:api:${caller.userId}`;

const keyOf = (organization: string, source: string, externalId: string) => `${organization}\u0000${source}\u0000${externalId}`;

function isHttpUrl(s: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(s).protocol) && s.length <= 2048;
  } catch {
    return false;
  }
}

/** Rules the schema cannot say; every item is checked before anything is stored. */
export function checkBatch(body: ConversationInput | ConversationInput[]): ConversationInput[] {
  const items = Array.isArray(body) ? body : [body];
  const at = (i: number) => (Array.isArray(body) ? `[${i}].` : '');
  if (!items.length) throw invalid('body: give at least one conversation');
  if (items.length > MAX_BATCH) throw invalid(`body: at most ${MAX_BATCH} conversations per request`);
  const seen = new Map<string, number>();
  items.forEach((c, i) => {
    if (!c.id.trim()) throw invalid(`${at(i)}id: must not be blank`);
    const dup = seen.get(c.id);
    if (dup !== undefined) throw invalid(`${at(i)}id: "${c.id}" appears twice in this request (also at [${dup}])`);
    seen.set(c.id, i);
    if (!c.parts.length) throw invalid(`${at(i)}parts: must have at least one message`);
    c.parts.forEach((p, j) => {
      if (!p.body.trim()) throw invalid(`${at(i)}parts[${j}].body: must not be empty`);
    });
    if (c.metadata?.url !== undefined && !isHttpUrl(c.metadata.url))
      throw invalid(`${at(i)}metadata.url: must be an absolute http(s) URL of at most 2048 characters`);
  });
  return items;
}

/** Stores (creates or replaces) each conversation, marked for processing. */
export function ingest(tx: WriteTx, ctx: Context, organizationId: string, caller: Caller, body: ConversationInput | ConversationInput[]): void {
  requireIngest(tx, organizationId, caller);
  const items = checkBatch(body);
  const now = ctx.clock.now().toISOString();
  const source = sourceOf(caller);
  items.forEach((c, i) => {
    const key = keyOf(organizationId, source, c.id);
    const existing = tx.find(Conversations, 'key', key)[0];
    tx.put(Conversations, {
      id: existing?.id ?? newId(),
      organization: organizationId,
      source,
      externalId: c.id,
      key,
      ...(c.subject !== undefined ? { subject: c.subject } : {}),
      metadata: c.metadata ?? {},
      parts: c.parts.map((p) => ({ type: 'message' as const, role: p.role, body: p.body })),
      createdAt: c.metadata?.createdAt ?? existing?.createdAt ?? now,
      ingestedAt: now,
      order: `${now}#${String(i).padStart(4, '0')}`,
      state: 'pending',
      generation: (existing?.generation ?? 0) + 1,
    });
  });
}

/** Conversations waiting to be processed, oldest ingestion first. */
export function pendingConversations(tx: ReadTx): ConversationRecord[] {
  return tx.find(Conversations, 'state', 'pending').sort((a, b) => a.order.localeCompare(b.order) || a.id.localeCompare(b.id));
}

// Newest first; conversations dated alike (one batch) by ingestion order, latest first.
const newestFirst = (a: ConversationRecord, b: ConversationRecord) =>
  b.createdAt.localeCompare(a.createdAt) || b.order.localeCompare(a.order) || a.id.localeCompare(b.id);

export function conversationsOf(tx: ReadTx, organizationId: string, caller: Caller, source?: string): ConversationRecord[] {
  requireReader(tx, organizationId, caller);
  return tx
    .find(Conversations, 'organization', organizationId)
    .filter((c) => source === undefined || c.source === source)
    .sort(newestFirst);
}

export function getConversation(tx: ReadTx, organizationId: string, caller: Caller, id: string): ConversationRecord {
  requireReader(tx, organizationId, caller);
  const c = tx.get(Conversations, id);
  if (!c || c.organization !== organizationId) throw notFound(`conversation ${id} not found`);
  return c;
}

/** Issues in the order of their conversations (newest first), then in their order within each. */
export function listIssues(tx: ReadTx, organizationId: string, caller: Caller, filter: { cluster?: string; conversation?: string }) {
  requireReader(tx, organizationId, caller);
  let issues: IssueRecord[];
  if (filter.cluster !== undefined) issues = tx.find(ConversationIssues, 'cluster', filter.cluster);
  else if (filter.conversation !== undefined) issues = tx.find(ConversationIssues, 'conversation', filter.conversation);
  else issues = tx.find(ConversationIssues, 'organization', organizationId);
  return issues
    .filter((i) => i.organization === organizationId && (filter.conversation === undefined || i.conversation === filter.conversation))
    .map((issue) => ({ issue, conversation: tx.get(Conversations, issue.conversation)! }))
    .sort((a, b) => newestFirst(a.conversation, b.conversation) || a.issue.index - b.issue.index);
}

export function getIssue(tx: ReadTx, organizationId: string, caller: Caller, id: string) {
  requireReader(tx, organizationId, caller);
  const issue = tx.get(ConversationIssues, id);
  if (!issue || issue.organization !== organizationId) throw notFound(`conversation issue ${id} not found`);
  return { issue, conversation: tx.get(Conversations, issue.conversation)! };
}

export function issuesOfCluster(tx: ReadTx, clusterId: string): IssueRecord[] {
  return tx.find(ConversationIssues, 'cluster', clusterId);
}

export function getCluster(tx: ReadTx, organizationId: string, caller: Caller, id: string): ClusterRecord {
  requireReader(tx, organizationId, caller);
  const c = tx.get(ConversationClusters, id);
  if (!c || c.organization !== organizationId) throw notFound(`issues cluster ${id} not found`);
  return c;
}

/**
 * For change requests (`conversationsIssuesCluster`, as a field and as a filter): the cluster,
 * or a 400 naming the field. Call it inside the change request's own transaction.
 */
export function requireCluster(tx: ReadTx, organizationId: string, clusterId: string): ClusterRecord {
  const c = tx.get(ConversationClusters, clusterId);
  if (!c || c.organization !== organizationId) throw invalid(`conversationsIssuesCluster: no issues cluster ${clusterId} in this organization`);
  return c;
}

export interface ClusterQuery {
  order?: 'asc' | 'desc';
  orderBy?: 'updatedAt' | 'issues' | 'conversations' | 'tasksTotal' | 'tasksBacklog' | 'tasksStarted';
  status?: 'pending' | 'analysing';
  /** A cluster's agent tasks by status (the operations layer knows them: src/agents is above this area). */
  tasks?: (clusterId: string) => TaskCounts;
}

/**
 * Clusters with their issues, ordered by `orderBy` (default updatedAt) in `order` (default desc);
 * ties by id. Clustering is done as each conversation is processed, so no cluster is ever
 * `pending` or `analysing`: those `status` filters give an empty list. Ordering by a task count
 * uses `q.tasks` (the clusters' agent tasks, src/agents/tasks.ts); ties by updatedAt.
 */
export function clustersFor(tx: ReadTx, organizationId: string, caller: Caller, q: ClusterQuery) {
  requireReader(tx, organizationId, caller);
  if (q.status !== undefined) return [];
  const rows = clustersOf(tx, organizationId).map((cluster) => {
    const issues = issuesOfCluster(tx, cluster.id);
    return { cluster, issues, conversations: new Set(issues.map((i) => i.conversation)).size };
  });
  const by = q.orderBy ?? 'updatedAt';
  const sign = (q.order ?? 'desc') === 'desc' ? -1 : 1;
  const key = (r: (typeof rows)[number]): number =>
    by === 'issues' ? r.issues.length : by === 'conversations' ? r.conversations : by === 'updatedAt' ? 0 : (q.tasks?.(r.cluster.id)[by] ?? 0);
  return rows.sort(
    (a, b) => sign * (key(a) - key(b)) || sign * a.cluster.updatedAt.localeCompare(b.cluster.updatedAt) || a.cluster.id.localeCompare(b.cluster.id),
  );
}
