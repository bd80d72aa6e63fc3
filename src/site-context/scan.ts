import { buildAnswer, keywordsOf, mdText } from '../ask/answer.js';
import type { Terms } from '../conversations/model.js';
import { cosine } from '../conversations/vectors.js';
import { loadParser } from '../content/link-refs.js';
import { markdownToDocument } from '../documents/markdown.js';
import type { Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { searchPassages } from '../search/service.js';
import { Sites } from '../sites/tables.js';
import type { WriteTx } from '../store/port.js';
import {
  SCAN_LIMITS,
  scanStateId,
  type SiteFindingRecord,
  type SiteFindingSeverity,
  type SiteFindingStatus,
  type SiteScanRecord,
  type SiteScanStateRecord,
} from './finding-model.js';
import { SiteFindings, SiteScans, SiteScanStates, SiteTopics } from './finding-tables.js';
import { scanInputs, type ScanInputs, type ScanPage } from './scan-inputs.js';
import { brokenLinks } from './scan-links.js';
import { clusterTopics, evidenceItems, findingId, pageVector, RECORD_PAGE_JOIN, topicId, type EvidenceItem, type TopicDraft } from './scan-topics.js';

// A scan of a site (docs/manual/site-findings.md#what-a-scan-does): its inputs read at once
// (scan-inputs.ts), its findings computed with no model, so the same inputs always give the same
// findings, then written in one write that updates the findings of earlier scans by their keys:
//   - content gaps: a topic of questions and records most of which the site's pages do not
//     answer (the ask engine's search and coverage rule, src/ask/answer.ts);
//   - broken links (scan-links.ts);
//   - outdated pages: a page unchanged since before document records about it were brought in.
// The scan row goes pending -> running -> done (or failed, with the error's message).

/** What a scan found, before it is written. */
interface Found {
  key: string;
  type: SiteFindingRecord['type'];
  severity: SiteFindingSeverity;
  /** The status a new finding gets (and one the scans set keeps getting). */
  status: Exclude<SiteFindingStatus, 'done' | 'canceled'>;
  title: string;
  description: Awaited<ReturnType<typeof markdownToDocument>>;
  autoFixable: boolean;
  topicKey: string | null;
  questions: string[];
  records: string[];
  pages: { space: string; page: string }[];
  brokenLinkAction?: SiteFindingRecord['brokenLinkAction'];
  brokenLink?: SiteFindingRecord['brokenLink'];
  connectors: string[];
  connections: string[];
}

/** Evidence weighing this much (asks of its questions plus records) makes a gap medium, then high. */
export const GAP_SEVERITY = { medium: 3, high: 10 };
/** A gap with evidence weighing less than this is a candidate (not shown by default, not counted). */
export const GAP_OPEN = 2;
/** Newer document records about an outdated page making it medium, then high. */
export const OUTDATED_SEVERITY = { medium: 2, high: 5 };

const cut = (s: string, n: number) => (s.length <= n ? s : s.slice(0, n - 1) + '…');
const severityOf = (n: number, t: { medium: number; high: number }): SiteFindingSeverity => (n >= t.high ? 'high' : n >= t.medium ? 'medium' : 'low');
const evidenceCount = (f: { questions: string[]; records: string[] }) => f.questions.length + f.records.length;
const pageKey = (p: ScanPage) => `${p.space.id}/${p.node.id}`;

/** The scan row a scan starts with (pending). */
export function queueScan(tx: WriteTx, ctx: Context, organization: string, site: string): SiteScanRecord {
  return tx.put(SiteScans, {
    id: `${site}:${newId()}`,
    organization,
    site,
    status: 'pending',
    createdAt: ctx.clock.now().toISOString(),
    findings: { low: 0, medium: 0, high: 0 },
  });
}

/** Queues and runs a scan of a site: the finished scan row (done or failed). 404 for an unknown site. */
export async function scanSite(ctx: Context, organization: string, siteId: string): Promise<SiteScanRecord> {
  const scan = await ctx.store.write((tx) => {
    const site = tx.get(Sites, siteId);
    if (!site || site.organization !== organization) throw notFound(`site ${siteId} not found`);
    return queueScan(tx, ctx, organization, siteId);
  });
  return runScan(ctx, scan.id);
}

/** Runs a pending scan. A failure is kept on the row (failed, with its message), not thrown. */
export async function runScan(ctx: Context, scanId: string): Promise<SiteScanRecord> {
  const started = await ctx.store.write((tx) => {
    const s = tx.get(SiteScans, scanId);
    if (!s) throw notFound(`site scan ${scanId} not found`);
    return tx.put(SiteScans, { ...s, status: 'running', startedAt: ctx.clock.now().toISOString() });
  });
  try {
    const parse = await loadParser();
    const read = await ctx.store.read((tx) => {
      const site = tx.get(Sites, started.site);
      if (!site) throw notFound(`site ${started.site} not found`);
      const inputs = scanInputs(tx, site);
      return { inputs, links: brokenLinks(inputs, parse, ctx.baseUrl), state: tx.get(SiteScanStates, scanStateId(site.id)) };
    });
    const { found, topics, pageSince } = await compute(ctx, read.inputs, read.links, read.state);
    return await ctx.store.write((tx) => apply(tx, ctx, started, read.inputs, found, topics, pageSince));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return ctx.store.write((tx) => {
      const s = tx.get(SiteScans, scanId) ?? started;
      return tx.put(SiteScans, { ...s, status: 'failed', finishedAt: ctx.clock.now().toISOString(), failureMessage: cut(message, 500) });
    });
  }
}

async function compute(ctx: Context, inputs: ScanInputs, links: ReturnType<typeof brokenLinks>, state: SiteScanStateRecord | undefined) {
  const found: Found[] = [];
  const pageVectors = new Map<ScanPage, Terms>(inputs.pages.map((p) => [p, pageVector(p)]));
  const items = evidenceItems(inputs.questions, inputs.records);
  const topics = clusterTopics(items, inputs.pages, pageVectors);
  const doc = (md: string) => markdownToDocument(md);

  // Content gaps: does a page answer each item (the most recent few of each topic)?
  const answered = new Map<string, boolean>();
  const answers = async (text: string) => {
    const hit = answered.get(text);
    if (hit !== undefined) return hit;
    const keys = keywordsOf(text);
    const passages = keys.words.length ? await searchPassages(ctx, inputs.site.organization, inputs.spaces, keys.words, { limit: 30 }) : [];
    const ok = !buildAnswer(text, keys, passages, () => '').noSource;
    answered.set(text, ok);
    return ok;
  };
  for (const t of topics) {
    const checked = [...t.items].sort((a, b) => b.at.localeCompare(a.at) || a.id.localeCompare(b.id)).slice(0, SCAN_LIMITS.checkedPerTopic);
    let unanswered = 0;
    for (const item of checked) if (!(await answers(item.text))) unanswered++;
    if (unanswered * 2 <= checked.length) continue;
    const weight = t.items.reduce((n, i) => n + i.weight, 0);
    found.push({
      key: `gap:${t.key}`,
      type: 'content-gap',
      severity: severityOf(weight, GAP_SEVERITY),
      status: weight >= GAP_OPEN ? 'open' : 'candidate',
      title: cut(`No page answers: ${t.label}`, 256),
      description: await doc(gapDescription(t, unanswered, checked.length)),
      autoFixable: false,
      topicKey: t.key,
      ...evidence(t.items),
      pages: t.pages.slice(0, SCAN_LIMITS.gapPages).map((x) => ({ space: x.page.space.id, page: x.page.node.id })),
    });
  }

  // Broken links.
  for (const l of links) {
    const where = `“${l.page.node.title}”`;
    const what =
      l.missing.kind === 'anchor'
        ? `links to the anchor #${l.missing.anchor} of “${l.missing.targetTitle}”, which has no heading with that anchor`
        : `links to the ${l.missing.kind} ${l.missing.ref}, which is not in the space`;
    const fix = l.fix.replacement
      ? `The page at ${l.fix.replacement.path} has the same name: the link can lead there${l.action ? `, and a redirect from ${l.action.source} fixes other links to the old address` : ''}.`
      : l.missing.kind === 'anchor'
        ? 'The link can lead to the page itself (its top).'
        : 'No page of the space has that name: the link can be removed (its text kept) or the page written.';
    found.push({
      key: `link:${l.page.space.id}:${l.page.node.id}:${l.url}`,
      type: 'broken-link',
      severity: l.missing.kind === 'anchor' ? 'low' : 'medium',
      status: 'open',
      title: cut(`Broken link on ${where}: ${l.url}`, 256),
      description: await doc(`${mdText(l.page.node.title)} (${l.page.sitePath}) ${mdText(what)}. ${mdText(fix)}`),
      autoFixable: true,
      topicKey: null,
      questions: [],
      records: [],
      connectors: [],
      connections: [],
      pages: [{ space: l.page.space.id, page: l.page.node.id }],
      ...(l.action ? { brokenLinkAction: l.action } : {}),
      brokenLink: l.fix,
    });
  }

  // Outdated pages: document records about a page brought in after the page last changed (as far
  // as the scans know: since the first revision a scan saw its body in).
  const pageSince = new Map<string, { hash: string; since: string }>();
  const documents = items.filter((i) => i.kind === 'record' && i.record!.type === 'document');
  const topicOf = new Map<string, TopicDraft>();
  for (const t of topics) for (const i of t.items) topicOf.set(`${i.kind}:${i.id}`, t);
  // Each document is about the one page nearest to it (ties: the first in site order), if near enough.
  const about = new Map<EvidenceItem, ScanPage>();
  for (const d of documents) {
    let best: { p: ScanPage; sim: number } | undefined;
    for (const p of inputs.pages) {
      const sim = cosine(d.vector, pageVectors.get(p)!);
      if (sim >= RECORD_PAGE_JOIN && (!best || sim > best.sim)) best = { p, sim };
    }
    if (best) about.set(d, best.p);
  }
  for (const p of inputs.pages) {
    const hash = p.node.content ?? '';
    const had = state?.pages[pageKey(p)];
    const since = had && had.hash === hash ? had.since : p.revisionAt;
    pageSince.set(pageKey(p), { hash, since });
    const newer = documents
      .filter((d) => about.get(d) === p && (d.record!.sourceCreatedAt ?? d.record!.createdAt) > since)
      .sort((a, b) => b.at.localeCompare(a.at) || a.id.localeCompare(b.id));
    if (!newer.length) continue;
    const list = newer
      .slice(0, 10)
      .map((d) => `- ${mdText(d.record!.title)}${d.record!.url ? ` (${d.record!.url})` : ''}`)
      .join('\n');
    found.push({
      key: `outdated:${p.space.id}:${p.node.id}`,
      type: 'content-outdated',
      severity: severityOf(newer.length, OUTDATED_SEVERITY),
      status: 'open',
      title: cut(`May be outdated: ${p.node.title}`, 256),
      description: await doc(
        `${mdText(p.node.title)} (${p.sitePath}) has not changed since ${since}; ${newer.length} document${newer.length === 1 ? '' : 's'} about it came in since:\n\n${list}`,
      ),
      autoFixable: false,
      topicKey: topicOf.get(`record:${newer[0]!.id}`)?.key ?? null,
      ...evidence(newer),
      questions: [],
      pages: [{ space: p.space.id, page: p.node.id }],
    });
  }
  return { found, topics: await Promise.all(topics.map(async (t) => ({ draft: t, summary: await doc(topicSummary(t)) }))), pageSince };
}

function evidence(items: readonly EvidenceItem[]) {
  const records = items.filter((i) => i.kind === 'record').map((i) => i.record!);
  return {
    questions: items.filter((i) => i.kind === 'question').map((i) => i.id),
    records: records.map((r) => r.id),
    connectors: [...new Set(records.map((r) => r.connector))].sort(),
    connections: [...new Set(records.map((r) => r.connection))].sort(),
  };
}

function gapDescription(t: TopicDraft, unanswered: number, checked: number): string {
  const lines = t.items.slice(0, 10).map((i) => `- ${mdText(i.text)}${i.kind === 'question' ? ` (asked ${i.weight} time${i.weight === 1 ? '' : 's'})` : ''}`);
  return `${unanswered} of the ${checked} most recent questions and records about ${mdText(t.label.toLowerCase())} find no page that answers them:\n\n${lines.join('\n')}`;
}

function topicSummary(t: TopicDraft): string {
  const q = t.items.filter((i) => i.kind === 'question').length;
  const r = t.items.length - q;
  return `${q} question${q === 1 ? '' : 's'} and ${r} record${r === 1 ? '' : 's'} about ${mdText(t.label.toLowerCase())}.`;
}

/** Writes what a scan found: topics and findings updated by their keys, people's decisions kept. */
function apply(
  tx: WriteTx,
  ctx: Context,
  scan: SiteScanRecord,
  inputs: ScanInputs,
  found: Found[],
  topics: { draft: TopicDraft; summary: Awaited<ReturnType<typeof markdownToDocument>> }[],
  pageSince: Map<string, { hash: string; since: string }>,
): SiteScanRecord {
  const now = ctx.clock.now().toISOString();
  const site = scan.site;
  // Topics: made or updated; those no longer found are removed (their findings keep no topic).
  const topicIds = new Map<string, string>();
  const keep = new Set<string>();
  for (const { draft, summary } of topics) {
    const id = topicId(site, draft.key);
    topicIds.set(draft.key, id);
    keep.add(id);
    const had = tx.get(SiteTopics, id);
    tx.put(SiteTopics, {
      id,
      key: draft.key,
      organization: scan.organization,
      site,
      label: draft.label,
      summary,
      icon: had?.icon ?? 'lightbulb',
      usageSettings: had?.usageSettings ?? { changeRequests: true },
      questions: draft.items.filter((i) => i.kind === 'question').map((i) => i.id),
      records: draft.items.filter((i) => i.kind === 'record').map((i) => i.id),
      pages: draft.pages.map((x) => ({ space: x.page.space.id, page: x.page.node.id })),
      createdAt: had?.createdAt ?? now,
      updatedAt: had && sameTopic(had, draft) ? had.updatedAt : now,
    });
  }
  for (const t of tx.find(SiteTopics, 'site', site)) if (!keep.has(t.id)) tx.delete(SiteTopics, t.id);

  // Findings: by key; a finding no longer found is resolved (a scan's open one: done; a candidate: removed).
  const counts = { low: 0, medium: 0, high: 0 };
  const seen = new Set<string>();
  for (const f of found) {
    const id = findingId(site, f.key);
    seen.add(id);
    const had = tx.get(SiteFindings, id);
    const topic = f.topicKey ? (topicIds.get(f.topicKey) ?? null) : null;
    const { topicKey: _, status: scanStatus, ...fields } = f;
    if (had?.deletedAt && evidenceCount(f) <= (had.deletedEvidence ?? 0)) continue; // deleted, and nothing new
    const revived = !!had?.deletedAt;
    const byPerson = had && !revived && had.statusBy === 'person';
    const status: SiteFindingStatus = byPerson ? had.status : scanStatus;
    const changed = !had || revived || had.status !== status || JSON.stringify(pick(had)) !== JSON.stringify(pick({ ...fields, topic }));
    const { deletedAt: _d, deletedEvidence: _e, ...rest } = had ?? ({} as Partial<SiteFindingRecord>);
    tx.put(SiteFindings, {
      ...rest,
      ...fields,
      id,
      organization: scan.organization,
      site,
      scan: scan.id,
      topic,
      status,
      statusBy: byPerson ? 'person' : 'scan',
      changeRequests: had?.changeRequests ?? [],
      createdAt: had?.createdAt ?? now,
      updatedAt: changed ? now : had!.updatedAt,
    });
    if (status !== 'candidate') counts[f.severity]++;
  }
  for (const f of tx.find(SiteFindings, 'site', site)) {
    if (seen.has(f.id) || f.deletedAt) continue;
    const topic = f.topic && keep.has(f.topic) ? f.topic : null;
    if (f.statusBy === 'scan' && f.status === 'candidate') tx.delete(SiteFindings, f.id);
    else if (f.statusBy === 'scan' && f.status === 'open') tx.put(SiteFindings, { ...f, topic, status: 'done', updatedAt: now });
    else if (topic !== f.topic) tx.put(SiteFindings, { ...f, topic, updatedAt: now });
  }

  tx.put(SiteScanStates, {
    id: scanStateId(site),
    organization: scan.organization,
    site,
    fingerprint: inputs.fingerprint,
    scannedAt: now,
    pages: Object.fromEntries(pageSince),
  });
  const done = tx.put(SiteScans, { ...scan, status: 'done', finishedAt: now, findings: counts, fingerprint: inputs.fingerprint });
  const scans = tx.find(SiteScans, 'site', site);
  if (scans.length > SCAN_LIMITS.scans) {
    const drop = scans.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)).slice(0, scans.length - SCAN_LIMITS.scans);
    for (const s of drop) if (s.status === 'done' || s.status === 'failed') tx.delete(SiteScans, s.id);
  }
  return done;
}

/** What makes a finding "updated" for updatedAt (and the updatedAfter filter): its content, not the scan that saw it. */
const pick = (f: Partial<SiteFindingRecord> & { topic: string | null }) => [
  f.type,
  f.severity,
  f.title,
  f.topic,
  f.questions,
  f.records,
  f.pages,
  f.brokenLinkAction,
];

const sameTopic = (had: { label: string; questions: string[]; records: string[] }, d: TopicDraft) =>
  had.label === d.label &&
  JSON.stringify(had.questions) === JSON.stringify(d.items.filter((i) => i.kind === 'question').map((i) => i.id)) &&
  JSON.stringify(had.records) === JSON.stringify(d.items.filter((i) => i.kind === 'record').map((i) => i.id));
