import { createChangeRequest } from '../change-requests/service.js';
import { type SpaceEntry, orgSpaces } from '../tree/order.js';
import { crsOf } from '../change-requests/lookup.js';
import type { ChangeRequestRecord } from '../change-requests/model.js';
import { SUBJECT_MAX } from '../change-requests/model.js';
import { clusterFacts, clustersOf } from '../conversations/cluster.js';
import type { ClusterRecord, IssueRecord } from '../conversations/model.js';
import { issuesOfCluster, requireReader } from '../conversations/service.js';
import type { Caller, Context } from '../kernel/context.js';
import { conflict, notFound } from '../kernel/errors.js';
import { membershipOf, requireOrgRole } from '../organizations/service.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { contentAccess } from '../tree/access.js';
import { recordChangeRequestConversation } from './cr-conversations.js';
import { AgentTasks } from './tables.js';

// Agent tasks (docs/manual/agents.md#agent-tasks): one per issues cluster of the conversations
// engine, computed at every read, never a placeholder. A task asks for the documentation to
// answer what its cluster's conversations ask; it acts on a space:
//   - the space of a change request that addresses the cluster (its `conversationsIssuesCluster`),
//     the newest such change request first;
//   - else the organization's oldest space (no space: no tasks; there is nothing to act on).
// Its status follows the change requests that address its cluster and what a person decided:
//   completed  a change request addressing the cluster was merged (final);
//   canceled   a person canceled it (updateAgentTask), and nothing was merged;
//   started    a change request addressing the cluster is open (or a draft);
//   backlog    none of these.
// updateAgentTask: `canceled` from backlog or started; `backlog` from canceled (a task whose change
// request is open stays started until it is archived); `started` from backlog or canceled opens a
// change request addressing the cluster in the task's space (when none is open). A completed task
// changes no more (409).

export type TaskStatus = 'backlog' | 'started' | 'completed' | 'canceled';

export interface Task {
  id: string;
  organization: string;
  cluster: ClusterRecord;
  issues: IssueRecord[];
  title: string;
  description: string;
  space: string;
  status: TaskStatus;
  /** The change request the status follows (merged for completed, open for started), else the newest addressing the cluster. */
  changeRequest?: ChangeRequestRecord;
  createdAt: string;
  updatedAt: string;
}

/** The most issue titles a task's instructions list. */
export const INSTRUCTION_ISSUES = 20;

const isOpen = (cr: ChangeRequestRecord) => cr.status === 'open' || cr.status === 'draft';
const newest = (a: ChangeRequestRecord, b: ChangeRequestRecord) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id);

interface OrgState {
  spaces: SpaceEntry[];
  /** cluster id -> change requests addressing it, newest first. */
  crs: Map<string, ChangeRequestRecord[]>;
}

function orgState(tx: ReadTx, organizationId: string): OrgState {
  const spaces = orgSpaces(tx, organizationId)
    .filter((s) => !s.deletedAt)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  const crs = new Map<string, ChangeRequestRecord[]>();
  for (const s of spaces)
    for (const cr of crsOf(tx, s.id)) {
      if (!cr.conversationsIssuesCluster) continue;
      const list = crs.get(cr.conversationsIssuesCluster) ?? [];
      list.push(cr);
      crs.set(cr.conversationsIssuesCluster, list);
    }
  for (const list of crs.values()) list.sort(newest);
  return { spaces, crs };
}

function taskOf(tx: ReadTx, ctx: Context, state: OrgState, cluster: ClusterRecord): Task | undefined {
  const crs = state.crs.get(cluster.id) ?? [];
  const space = crs[0]?.space ?? state.spaces[0]?.id;
  if (!space) return undefined;
  const issues = issuesOfCluster(tx, cluster.id);
  if (!issues.length) return undefined;
  const facts = clusterFacts(cluster, issues, ctx.clock.now());
  const decided = tx.get(AgentTasks, cluster.id);
  const merged = crs.find((c) => c.status === 'merged');
  const open = crs.find(isOpen);
  const status: TaskStatus = merged ? 'completed' : decided?.canceled ? 'canceled' : open ? 'started' : 'backlog';
  const changeRequest = merged ?? open ?? crs[0];
  const updatedAt = [cluster.updatedAt, decided?.updatedAt ?? '', changeRequest?.updatedAt ?? ''].sort().at(-1)!;
  return {
    id: cluster.id,
    organization: cluster.organization,
    cluster,
    issues,
    title: `Answer in the docs: ${facts.label}`.slice(0, 200),
    description: facts.summary,
    space,
    status,
    ...(changeRequest ? { changeRequest } : {}),
    createdAt: cluster.createdAt,
    updatedAt,
  };
}

export interface TaskFilter {
  cluster?: string;
  space?: string;
  status?: TaskStatus[];
}

/** The organization's tasks the caller can see (on spaces they can see), newest change first. */
export function tasksOf(tx: ReadTx, ctx: Context, organizationId: string, caller: Caller, filter: TaskFilter = {}): Task[] {
  requireReader(tx, organizationId, caller);
  const state = orgState(tx, organizationId);
  const access = contentAccess(tx, organizationId, caller);
  const bySpace = new Map(state.spaces.map((s) => [s.id, s]));
  const clusters = filter.cluster !== undefined ? clustersOf(tx, organizationId).filter((c) => c.id === filter.cluster) : clustersOf(tx, organizationId);
  return clusters
    .map((c) => taskOf(tx, ctx, state, c))
    .filter((t): t is Task => t !== undefined && !!access.space(bySpace.get(t.space)!))
    .filter((t) => (filter.space === undefined || t.space === filter.space) && (!filter.status?.length || filter.status.includes(t.status)))
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id));
}

/** Every task of the organization, whoever asks (the setup state's counts). */
export function allTasks(tx: ReadTx, ctx: Context, organizationId: string): Task[] {
  const state = orgState(tx, organizationId);
  return clustersOf(tx, organizationId)
    .map((c) => taskOf(tx, ctx, state, c))
    .filter((t): t is Task => t !== undefined);
}

export function getTask(tx: ReadTx, ctx: Context, organizationId: string, caller: Caller, id: string): Task {
  const task = tasksOf(tx, ctx, organizationId, caller, { cluster: id })[0];
  if (!task) throw notFound(`agent task ${id} not found`);
  return task;
}

/** The task's instructions: what to answer, from its cluster's issues (a Document). */
export function instructionsOf(task: Task): { object: 'document'; data: Record<string, never>; nodes: unknown[] } {
  const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
  const paragraph = (t: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [text(t)] });
  const issues = [...task.issues].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
  const shown = issues.slice(0, INSTRUCTION_ISSUES);
  const nodes: unknown[] = [
    paragraph(
      `Update the documentation of space ${task.space} so that it answers what these conversations ask (${task.description}) Open a change request addressing issues cluster ${task.cluster.id}.`,
    ),
    {
      object: 'block',
      type: 'list-unordered',
      data: {},
      nodes: shown.map((i) => ({
        object: 'block',
        type: 'list-item',
        data: {},
        nodes: [paragraph(i.summary && i.summary !== i.title ? `${i.title}: ${i.summary}` : i.title)],
      })),
    },
  ];
  if (issues.length > shown.length) nodes.push(paragraph(`And ${issues.length - shown.length} more issues of the cluster.`));
  return { object: 'document', data: {}, nodes };
}

/** Changes a task's status by the rules above; returns the task as it now is. */
export function updateTask(tx: WriteTx, ctx: Context, organizationId: string, caller: Caller, id: string, status: 'backlog' | 'started' | 'canceled'): Task {
  const { member } = membershipOf(tx, organizationId, caller);
  const task = getTask(tx, ctx, organizationId, caller, id);
  requireOrgRole(member, 'edit', 'changing an agent task');
  if (task.status === status) return task;
  if (task.status === 'completed')
    throw conflict(`status: agent task ${id} is completed (change request ${task.changeRequest?.number} was merged): its status changes no more`);
  const now = ctx.clock.now().toISOString();
  const decide = (canceled: boolean) => tx.put(AgentTasks, { id, organization: organizationId, canceled, updatedAt: now, updatedBy: caller.userId });
  if (status === 'canceled') decide(true);
  else if (status === 'backlog') {
    if (task.changeRequest && isOpen(task.changeRequest))
      throw conflict(
        `status: change request ${task.changeRequest.number} of space ${task.changeRequest.space} is open for agent task ${id}: archive it to put the task back in the backlog`,
      );
    decide(false);
  } else {
    if (!(task.changeRequest && isOpen(task.changeRequest))) {
      const { cr } = createChangeRequest(tx, ctx, caller, task.space, {
        subject: task.title.slice(0, SUBJECT_MAX),
        description: instructionsOf(task),
        conversationsIssuesCluster: id,
      });
      // The agent opened it for the caller: its conversation there (docs/manual/agents.md#change-request-conversations).
      recordChangeRequestConversation(tx, ctx, { changeRequest: cr, user: caller.userId, origin: `agent-task:${id}`, title: task.title });
    }
    if (tx.get(AgentTasks, id)?.canceled) decide(false);
  }
  return getTask(tx, ctx, organizationId, caller, id);
}
