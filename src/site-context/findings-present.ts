import { answerMatches, questionOfAnswer, statsOf, type SiteQuestions } from '../ask/site-questions.js';
import { treeOf } from '../content/revisions.js';
import { flatten } from '../content/tree.js';
import type { Schema } from '../contract/types.js';
import { apiUrl, type Context } from '../kernel/context.js';
import { Revisions, Spaces } from '../spaces/tables.js';
import type { ReadTx } from '../store/port.js';
import type { FindingPageRef, SiteFindingRecord, SiteScanRecord, SiteTopicRecord } from './finding-model.js';
import { SiteFindings } from './finding-tables.js';

// The contract's shapes of the scan side (SiteScan, SiteFinding, SiteTopic, SiteFindingPage,
// ContextRecord), from the stored rows; counts are computed at each read.

const siteBase = (ctx: Context, org: string, site: string) => apiUrl(ctx, `/orgs/${org}/sites/${site}`);

export function presentScan(ctx: Context, s: SiteScanRecord): Schema<'SiteScan'> {
  return {
    object: 'site-scan',
    id: s.id,
    status: s.status,
    // Scans are of the whole site, never of one topic.
    topic: null,
    createdAt: s.createdAt,
    ...(s.startedAt ? { startedAt: s.startedAt } : {}),
    ...(s.finishedAt ? { finishedAt: s.finishedAt } : {}),
    findings: { ...s.findings },
    ...(s.failureMessage ? { failureMessage: s.failureMessage } : {}),
    urls: { location: `${siteBase(ctx, s.organization, s.site)}/scans/${encodeURIComponent(s.id)}` },
  };
}

export function presentFinding(ctx: Context, f: SiteFindingRecord): Schema<'SiteFinding'> {
  return {
    object: 'site-finding',
    id: f.id,
    scan: f.scan,
    topic: f.topic,
    title: f.title,
    changeRequests: f.changeRequests.length,
    pages: f.pages.length,
    records: f.records.length,
    questions: f.questions.length,
    status: f.status,
    type: f.type,
    severity: f.severity,
    description: f.description as Schema<'SiteFinding'>['description'],
    autoFixable: f.autoFixable,
    ...(f.brokenLinkAction ? { brokenLinkAction: { ...f.brokenLinkAction, destination: { ...f.brokenLinkAction.destination } } } : {}),
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    urls: { location: `${siteBase(ctx, f.organization, f.site)}/findings/${encodeURIComponent(f.id)}` },
  };
}

/** A site's live findings (not deleted). */
export const liveFindings = (tx: ReadTx, site: string) => tx.find(SiteFindings, 'site', site).filter((f) => !f.deletedAt);

/** A topic with its counts: its pages, records, findings (open and all shown: candidates and deleted ones are not), and its questions' stats. */
export function presentTopic(ctx: Context, tx: ReadTx, t: SiteTopicRecord, sq: SiteQuestions, range: { from?: string; to?: string } = {}): Schema<'SiteTopic'> {
  const findings = liveFindings(tx, t.site).filter((f) => f.topic === t.id && f.status !== 'candidate');
  const ids = new Set(t.questions);
  const answers = sq.answers.filter((a) => ids.has(questionOfAnswer(a)) && answerMatches(a, range));
  return {
    object: 'context-topic',
    id: t.id,
    label: t.label,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    icon: t.icon,
    summary: t.summary as Schema<'SiteTopic'>['summary'],
    usageSettings: { ...t.usageSettings },
    pages: t.pages.length,
    records: t.records.length,
    findings: { open: findings.filter((f) => f.status === 'open').length, total: findings.length },
    questions: statsOf(ctx.clock.now().getTime(), sq.questions.filter((q) => ids.has(q.id)).length, answers),
    urls: { location: `${siteBase(ctx, t.organization, t.site)}/topics/${encodeURIComponent(t.id)}` },
  };
}

/** The pages a finding names that are still in their space's current revision, as SiteFindingPage. */
export function presentFindingPages(tx: ReadTx, refs: readonly FindingPageRef[]): Schema<'SiteFindingPage'>[] {
  const out: Schema<'SiteFindingPage'>[] = [];
  const trees = new Map<string, Map<string, { id: string; type: string; title: string; path: string }>>();
  for (const ref of refs) {
    let pages = trees.get(ref.space);
    if (!pages) {
      const space = tx.get(Spaces, ref.space);
      const rev = space && !space.deletedAt ? tx.get(Revisions, space.revision) : undefined;
      pages = new Map((rev ? flatten(treeOf(tx, rev)) : []).map((l) => [l.node.id, { id: l.node.id, type: l.node.type, title: l.node.title, path: l.path }]));
      trees.set(ref.space, pages);
    }
    const p = pages.get(ref.page);
    if (p) out.push({ object: 'site-finding-page', spaceId: ref.space, page: { ...p, type: p.type as Schema<'ChangedRevisionPage'>['type'] } });
  }
  return out;
}
