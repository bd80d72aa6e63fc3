import type { Context } from '../kernel/context.js';
import { newId } from '../kernel/ids.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import type { ClusterRecord, IssueRecord, Terms } from './model.js';
import { addTerms, cosine, cut, topTerms } from './vectors.js';
import { ConversationClusters, ConversationIssues } from './tables.js';

// Grouping issues into clusters (docs/manual/conversations.md): leader-follower clustering over term
// vectors. Issues are taken in ingestion order; each joins the existing cluster of its
// organization whose centroid (the sum of its issues' vectors) is the most similar, if that
// similarity is at least JOIN; otherwise it starts a new cluster. Ties go to the older cluster,
// then to the smaller id, so the same conversations ingested in the same order always give the
// same clusters.

export const JOIN = 0.3;
export const WEEKS = 13;
const WEEK_MS = 7 * 24 * 3600 * 1000;

export function clustersOf(tx: ReadTx, organization: string): ClusterRecord[] {
  return tx.find(ConversationClusters, 'organization', organization);
}

/** The cluster an issue with these terms joins (its centroid updated), or a new one. */
export function assignCluster(tx: WriteTx, ctx: Context, organization: string, terms: Terms): ClusterRecord {
  const now = ctx.clock.now().toISOString();
  let best: { c: ClusterRecord; sim: number } | undefined;
  for (const c of clustersOf(tx, organization)) {
    const sim = cosine(terms, c.terms);
    if (sim < JOIN) continue;
    if (!best || sim > best.sim || (sim === best.sim && (c.createdAt < best.c.createdAt || (c.createdAt === best.c.createdAt && c.id < best.c.id))))
      best = { c, sim };
  }
  if (best) return tx.put(ConversationClusters, { ...best.c, terms: addTerms(best.c.terms, terms), updatedAt: now });
  return tx.put(ConversationClusters, { id: newId(), organization, terms: { ...terms }, createdAt: now, updatedAt: now });
}

/** Takes an issue out of its cluster; a cluster left without issues is removed. */
export function leaveCluster(tx: WriteTx, ctx: Context, issue: IssueRecord): void {
  const c = tx.get(ConversationClusters, issue.cluster);
  if (!c) return;
  const left = tx.find(ConversationIssues, 'cluster', c.id).filter((i) => i.id !== issue.id);
  if (!left.length) tx.delete(ConversationClusters, c.id);
  else tx.put(ConversationClusters, { ...c, terms: addTerms(c.terms, issue.terms, -1), updatedAt: ctx.clock.now().toISOString() });
}

/**
 * Issues per week over the last 13 weeks, oldest first, by the issues' createdAt (when the
 * conversation happened): week 12 is the 7 days up to now, week 0 the 7 days ending 12 weeks ago.
 */
export function weeklyPulse(issues: Pick<IssueRecord, 'createdAt'>[], now: Date): number[] {
  const pulse = new Array<number>(WEEKS).fill(0);
  const end = now.getTime();
  for (const i of issues) {
    const age = end - Date.parse(i.createdAt);
    if (age < 0) continue; // dated in the future: not in any past week
    const week = Math.floor(age / WEEK_MS);
    if (week < WEEKS) pulse[WEEKS - 1 - week]! += 1;
  }
  return pulse;
}

/** What a cluster shows, computed from its issues at every read (never stored counts). */
export function clusterFacts(c: ClusterRecord, issues: IssueRecord[], now: Date) {
  const sources: Record<string, number> = {};
  for (const i of issues) sources[i.source] = (sources[i.source] ?? 0) + 1;
  const conversations = new Set(issues.map((i) => i.conversation)).size;
  // The label is the title of the issue closest to the centroid: a real sentence of a user.
  const ranked = [...issues].sort(
    (a, b) => cosine(b.terms, c.terms) - cosine(a.terms, c.terms) || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
  );
  const display: Record<string, string> = {};
  for (const i of ranked) for (const [k, w] of Object.entries(i.display)) display[k] ??= w;
  const terms = topTerms(c.terms, 5).map((t) => display[t] ?? t);
  const label = cut(ranked[0]?.title ?? terms.join(', '), 100);
  const summary = `${issues.length} issue${issues.length === 1 ? '' : 's'} from ${conversations} conversation${conversations === 1 ? '' : 's'} about ${terms.join(', ')}.`;
  return { label, summary, sources, stats: { issues: issues.length, conversations }, weeklyPulse: weeklyPulse(issues, now) };
}
