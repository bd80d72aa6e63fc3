import { createHash } from 'node:crypto';
import type { Caller } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { rootOf } from '../content/revisions.js';
import { nodeRow } from '../content/nodes.js';
import { siteOf, SITE_READ } from '../sites/access.js';
import type { SiteRecord, SiteSpaceRecord } from '../sites/model.js';
import { sectionsOf, siteSpacesIn, siteSpacesOfSite } from '../sites/rows.js';
import type { SpaceRecord } from '../spaces/model.js';
import { listSpaces } from '../spaces/service.js';
import { Revisions } from '../spaces/tables.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { type Keywords, normalizeQuestion, related } from './answer.js';
import { ASK_LIMITS, type AskQuestionRecord, type AskResponseRecord, type AskSourceRecord } from './model.js';
import type { BuiltAnswer } from './answer.js';
import { AskQuestions, AskResponses } from './tables.js';
import { recordAIUsage } from '../organizations/ai-usage.js';
import { spaceRow } from '../tree/order.js';

// Who may ask what, over which content, and what is kept of it (docs/manual/ask.md). An answer
// quotes only spaces the caller may read: an organization's question, every space of it they may
// read (as searchOrganizationContent); a site's, the site spaces its scope names, of those.

/** The spaces an organization question searches: every live space the caller may read (404 for a non-member). */
export function organizationSpaces(tx: ReadTx, caller: Caller, organizationId: string): SpaceRecord[] {
  return listSpaces(tx, caller, organizationId)
    .filter(({ row }) => !row.deletedAt)
    .map(({ row }) => spaceRow(tx, row));
}

/** The contract's SiteSearchScope (both specs: default, with currentSiteSpace and restrictTo; specific; all). */
export type SiteScope =
  | { mode: 'default'; currentSiteSpace?: string; restrictTo?: 'currentSiteSpace' | 'otherSiteSpaces' | string }
  | { mode: 'specific'; siteSpaceIds: string[] }
  | { mode: 'all' };

export interface SiteSearch {
  site: SiteRecord;
  /** The spaces searched, with the site space each is reached through. */
  spaces: SpaceRecord[];
  siteSpaceOf: Map<string, SiteSpaceRecord>;
}

/**
 * The spaces a site question searches: the site spaces of `scope` (the default one of each
 * section, plus `currentSiteSpace`; the listed ones; all of them), kept to those whose space the
 * caller may read. The caller needs the read role on the site (404 for another organization's).
 */
export function siteSpaces(tx: ReadTx, caller: Caller, organizationId: string, siteId: string, scope: SiteScope | undefined): SiteSearch {
  const { site } = siteOf(tx, caller, organizationId, siteId, SITE_READ, 'asking a site');
  const all = siteSpacesOfSite(tx, site.id);
  const byId = new Map(all.map((ss) => [ss.id, ss]));
  const known = (id: string, field: string) => {
    const ss = byId.get(id);
    if (!ss) throw invalid(`${field}: site space ${id} is not in site ${site.id}`);
    return ss;
  };
  let chosen: SiteSpaceRecord[];
  const mode = scope?.mode ?? 'default';
  if (scope?.mode === 'specific') {
    if (!scope.siteSpaceIds.length) throw invalid('scope.siteSpaceIds: at least one site space is required');
    chosen = scope.siteSpaceIds.map((id) => known(id, 'scope.siteSpaceIds'));
  } else if (mode === 'all') chosen = all;
  else {
    const s = scope as Extract<SiteScope, { mode: 'default' }> | undefined;
    const sections = sectionsOf(tx, site.id);
    const defaults = (sections.length ? sections.map((sec) => sec.id) : [null]).flatMap((sec) => {
      const list = siteSpacesIn(tx, site.id, sec);
      const d = list.find((ss) => ss.default) ?? list[0];
      return d ? [d] : [];
    });
    const current = s?.currentSiteSpace ? known(s.currentSiteSpace, 'scope.currentSiteSpace') : undefined;
    if (s?.restrictTo !== undefined && !current) throw invalid('scope.restrictTo: needs scope.currentSiteSpace');
    if (s?.restrictTo === 'currentSiteSpace') chosen = [current!];
    else if (s?.restrictTo === 'otherSiteSpaces') chosen = defaults.filter((d) => d.id !== current!.id);
    else chosen = current && !defaults.some((d) => d.id === current.id) ? [current, ...defaults] : defaults;
  }
  const readable = new Map(organizationSpaces(tx, caller, organizationId).map((s) => [s.id, s]));
  const spaces: SpaceRecord[] = [];
  const siteSpaceOf = new Map<string, SiteSpaceRecord>();
  for (const ss of chosen) {
    const space = readable.get(ss.space);
    if (!space || siteSpaceOf.has(space.id)) continue;
    spaces.push(space);
    siteSpaceOf.set(space.id, ss);
  }
  return { site, spaces, siteSpaceOf };
}

/** 400 for a question over the length limit or with nothing in it. */
export function checkQuestion(text: string, field: string, max = ASK_LIMITS.question): string {
  const q = text.trim();
  if (!q) throw invalid(`${field}: must not be empty`);
  if ([...text].length > max) throw invalid(`${field}: at most ${max} characters (got ${[...text].length})`);
  return q;
}

export const questionId = (org: string, site: string | null, siteSpace: string | undefined, text: string) =>
  `${org}.q${createHash('sha256')
    .update(`${site ?? ''}\n${siteSpace ?? ''}\n${normalizeQuestion(text)}`)
    .digest('base64url')
    .slice(0, 20)}`;

/** Counts a question (one more for its row, made on first asking); the least asked and oldest go beyond the limit. */
export function recordQuestion(
  tx: WriteTx,
  now: string,
  q: { organization: string; site: string | null; siteSpace?: string; text: string; answered: boolean },
): AskQuestionRecord {
  const id = questionId(q.organization, q.site, q.siteSpace, q.text);
  const old = tx.get(AskQuestions, id);
  const row: AskQuestionRecord = {
    id,
    organization: q.organization,
    site: q.site,
    ...(q.siteSpace ? { siteSpace: q.siteSpace } : {}),
    text: q.text,
    count: (old?.count ?? 0) + 1,
    answered: q.answered,
    firstAskedAt: old?.firstAskedAt ?? now,
    lastAskedAt: now,
  };
  tx.put(AskQuestions, row);
  recordAIUsage(tx, q.organization, 'ask', now);
  if (!old) {
    const rows = tx.find(AskQuestions, 'organization', q.organization);
    if (rows.length > ASK_LIMITS.questions) {
      const drop = rows
        .filter((r) => r.id !== id)
        .sort((a, b) => a.count - b.count || a.lastAskedAt.localeCompare(b.lastAskedAt) || a.id.localeCompare(b.id))
        .slice(0, rows.length - ASK_LIMITS.questions);
      for (const r of drop) tx.delete(AskQuestions, r.id);
    }
  }
  return row;
}

/** Questions asked before (answered ones), most asked first: of a site (and site space), or of the organization itself. */
export function askedQuestions(tx: ReadTx, organization: string, site: string | null, siteSpace?: string): AskQuestionRecord[] {
  return tx
    .find(AskQuestions, 'organization', organization)
    .filter((r) => r.answered && r.site === site && (!siteSpace || r.siteSpace === siteSpace))
    .sort((a, b) => b.count - a.count || b.lastAskedAt.localeCompare(a.lastAskedAt) || a.id.localeCompare(b.id));
}

/** How many questions are recommended. */
export const RECOMMENDED = 5;

/** A page title as a question. */
export const titleQuestion = (title: string) => (/\?\s*$/.test(title) ? title.trim() : `What is ${title.trim()}?`);

/**
 * Recommended questions: the answered questions asked most often here, then questions made of the
 * titles of the top-level pages of the spaces searched (in their order), without repeats.
 */
export function recommendedQuestions(tx: ReadTx, asked: AskQuestionRecord[], spaces: readonly SpaceRecord[], n = RECOMMENDED): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (q: string) => {
    const k = normalizeQuestion(q);
    if (!k || seen.has(k) || out.length >= n) return;
    seen.add(k);
    out.push(q);
  };
  for (const q of asked) add(q.text);
  for (const space of spaces) {
    if (out.length >= n) break;
    const rev = tx.get(Revisions, space.revision);
    if (!rev) continue;
    for (const hash of rootOf(tx, rev)) {
      const node = nodeRow(tx, space.id, hash)?.node;
      if (node && node.type === 'document' && !node.hidden && node.title.trim()) add(titleQuestion(node.title));
      if (out.length >= n) break;
    }
  }
  return out;
}

/** Up to `n` questions asked before that share words with this one (followups). */
export function relatedQuestions(asked: AskQuestionRecord[], keys: Keywords, question: string, n: number): string[] {
  const self = normalizeQuestion(question);
  return asked
    .filter((r) => normalizeQuestion(r.text) !== self)
    .map((r) => ({ r, shared: related(keys, r.text) }))
    .filter((x) => x.shared > 0)
    .sort((a, b) => b.shared - a.shared || b.r.count - a.r.count || a.r.id.localeCompare(b.r.id))
    .slice(0, n)
    .map((x) => x.r.text);
}

/** Keeps an AI response (the oldest beyond the limit dropped). */
export function saveResponse(tx: WriteTx, row: Omit<AskResponseRecord, 'id'>): AskResponseRecord {
  const full: AskResponseRecord = { id: `${row.organization}.r${newId(20)}`, ...row };
  tx.put(AskResponses, full);
  const rows = tx.find(AskResponses, 'organization', row.organization);
  if (rows.length > ASK_LIMITS.responses) {
    const drop = rows.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)).slice(0, rows.length - ASK_LIMITS.responses);
    for (const r of drop) tx.delete(AskResponses, r.id);
  }
  return full;
}

/** A response given on this site (404 for any other id, an id of another site or organization, or an ask's answer, included). */
export function responseOf(tx: ReadTx, organization: string, site: string, id: string): AskResponseRecord {
  const r = id.startsWith(`${organization}.`) ? tx.get(AskResponses, id) : undefined;
  if (!r || r.organization !== organization || r.site !== site || r.kind === 'ask') throw notFound(`AI response ${id} not found in site ${site}`);
  return r;
}

/** The pages an answer quoted, as kept: each with its revision, title and share of the answer. */
export function sourcesOfAnswer(built: BuiltAnswer): AskSourceRecord[] {
  const total = built.sources.reduce((n, s) => n + s.coverage, 0);
  return built.sources.map((s) => ({
    space: s.passage.space.id,
    page: s.passage.page,
    revision: s.passage.space.revision,
    title: s.passage.pageTitle,
    weight: total > 0 ? s.coverage / total : 1 / built.sources.length,
  }));
}

/** The question an AI response input asks: its last user message, as text. */
export function questionOfInput(input: readonly { role: string; content: unknown }[], toText: (doc: unknown) => string): string {
  const last = [...input].reverse().find((m) => m.role === 'user');
  if (!last) throw invalid('input: needs a message with role user');
  const text = typeof last.content === 'string' ? last.content : toText(last.content);
  return checkQuestion(text, 'input', ASK_LIMITS.message);
}
