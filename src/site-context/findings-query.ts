import { AskQuestions } from '../ask/tables.js';
import { ChangeRequests } from '../change-requests/tables.js';
import type { Schema } from '../contract/types.js';
import { invalid, notFound } from '../kernel/errors.js';
import type { ReadTx } from '../store/port.js';
import type { SiteFindingRecord, SiteFindingSeverity } from './finding-model.js';
import { SiteFindings, SiteTopics } from './finding-tables.js';
import { liveFindings } from './findings-present.js';
import { ContextConnections } from './tables.js';

// Which findings a list or the stats count (docs/manual/site-findings.md#reading-findings): the
// filters of listSiteFindings and getSiteFindingStats, checked (a filter naming a topic, question
// or connection the site does not have is a 400 naming it), and the orders.

export interface FindingFilter {
  topic?: string;
  question?: string;
  status?: SiteFindingRecord['status'];
  type?: SiteFindingRecord['type'][] | SiteFindingRecord['type'];
  severity?: SiteFindingSeverity;
  hasChangeRequests?: boolean;
  source?: string[] | string;
  updatedAfter?: string;
  updatedBefore?: string;
}

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** 400 for a filter naming what the site does not have, or a time range backwards. */
export function checkFilter(tx: ReadTx, org: string, site: string, f: FindingFilter): void {
  if (f.topic !== undefined) {
    const t = tx.get(SiteTopics, f.topic);
    if (!t || t.site !== site) throw invalid(`topic: no topic ${f.topic} in site ${site}`);
  }
  if (f.question !== undefined) {
    const q = tx.get(AskQuestions, f.question);
    if (!q || q.site !== site) throw invalid(`question: no question ${f.question} in site ${site}`);
  }
  list(f.source).forEach((s, i) => {
    if (s === 'questions') return;
    const id = s.slice('connection:'.length);
    const c = tx.get(ContextConnections, id);
    if (!c || c.site !== site || c.organization !== org) throw invalid(`source[${i}]: no connection ${id} in site ${site}`);
  });
  if (f.updatedAfter !== undefined && f.updatedBefore !== undefined && Date.parse(f.updatedAfter) > Date.parse(f.updatedBefore))
    throw invalid(`updatedAfter: ${f.updatedAfter} is after updatedBefore (${f.updatedBefore})`);
}

/** Does a finding pass the filters? With no status filter, candidates do not (they are not shown). */
export function matches(f: SiteFindingRecord, q: FindingFilter): boolean {
  if (q.status !== undefined ? f.status !== q.status : f.status === 'candidate') return false;
  if (q.topic !== undefined && f.topic !== q.topic) return false;
  if (q.question !== undefined && !f.questions.includes(q.question)) return false;
  const types = list(q.type);
  if (types.length && !types.includes(f.type)) return false;
  if (q.severity !== undefined && f.severity !== q.severity) return false;
  if (q.hasChangeRequests !== undefined && q.hasChangeRequests !== f.changeRequests.length > 0) return false;
  const sources = list(q.source);
  if (sources.length && !sources.some((s) => (s === 'questions' ? f.questions.length > 0 : f.connections.includes(s.slice('connection:'.length)))))
    return false;
  if (q.updatedAfter !== undefined && Date.parse(f.updatedAt) <= Date.parse(q.updatedAfter)) return false;
  if (q.updatedBefore !== undefined && Date.parse(f.updatedAt) >= Date.parse(q.updatedBefore)) return false;
  return true;
}

const RANK: Record<SiteFindingSeverity, number> = { high: 3, medium: 2, low: 1 };

/** Orders: the most recently updated first; the most severe; the most sources (questions and records). Ties: updatedAt, then id. */
export function ordered(all: SiteFindingRecord[], orderBy: 'updatedAt' | 'severity' | 'sources' = 'updatedAt'): SiteFindingRecord[] {
  const recent = (a: SiteFindingRecord, b: SiteFindingRecord) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id);
  const by =
    orderBy === 'severity'
      ? (a: SiteFindingRecord, b: SiteFindingRecord) => RANK[b.severity] - RANK[a.severity] || recent(a, b)
      : orderBy === 'sources'
        ? (a: SiteFindingRecord, b: SiteFindingRecord) => b.questions.length + b.records.length - (a.questions.length + a.records.length) || recent(a, b)
        : recent;
  return [...all].sort(by);
}

/** A finding of the site (404 for an unknown id, another site's, or a deleted one). */
export function findingOf(tx: ReadTx, site: string, id: string): SiteFindingRecord {
  const f = tx.get(SiteFindings, id);
  if (!f || f.site !== site || f.deletedAt) throw notFound(`site finding ${id} not found in site ${site}`);
  return f;
}

/** The stats of the findings passing the filter; candidates are never counted. */
export function findingStats(tx: ReadTx, site: string, q: FindingFilter): Schema<'SiteFindingStats'> {
  const shown = liveFindings(tx, site).filter((f) => f.status !== 'candidate' && matches(f, { ...q, status: q.status }));
  const statuses = { open: 0, done: 0, canceled: 0 };
  const severities = { low: 0, medium: 0, high: 0 };
  const connectors: Record<string, number> = {};
  let questions = 0;
  let merged = 0;
  for (const f of shown) {
    if (f.status !== 'candidate') statuses[f.status]++;
    severities[f.severity]++;
    for (const c of f.connectors) connectors[c] = (connectors[c] ?? 0) + 1;
    if (f.questions.length) questions++;
    for (const c of f.changeRequests) if (tx.get(ChangeRequests, c.changeRequest)?.status === 'merged') merged++;
  }
  return { total: shown.length, statuses, severities, connectors, questions, mergedChangeRequests: merged };
}
