import { mdText } from '../ask/answer.js';
import { AskQuestions } from '../ask/tables.js';
import { applyChanges } from '../change-requests/authoring.js';
import { SUBJECT_MAX } from '../change-requests/model.js';
import { recordChangeRequestConversation } from '../agents/cr-conversations.js';
import { createChangeRequest } from '../change-requests/service.js';
import { ChangeRequests } from '../change-requests/tables.js';
import type { Parse } from '../content/link-refs.js';
import { markdownOf, treeOf } from '../content/revisions.js';
import { flatten } from '../content/tree.js';
import type { Caller, Context } from '../kernel/context.js';
import { DocsError } from '../kernel/errors.js';
import { siteSpacesOfSite, defaultSection } from '../sites/rows.js';
import { Revisions, Spaces } from '../spaces/tables.js';
import type { WriteTx } from '../store/port.js';
import type { SiteFindingRecord } from './finding-model.js';
import { SiteFindings } from './finding-tables.js';
import { ContextConnections, ContextRecords } from './tables.js';

// The change request that fixes a finding (triggerChangeRequestsForSiteFinding;
// docs/manual/site-findings.md#change-requests), opened as a draft in the space the finding
// concerns (its first page's), else in the site's default site space's:
//   - a content gap: a new page titled after the finding, quoting its questions and records as
//     bullets with their sources, for a writer to turn into the answer;
//   - a broken link: the page with the link rewritten to the page named like the missing one, or
//     to the page without the missing anchor, or, with neither, the link removed and its text kept;
//   - an outdated page: the page with a note on top listing the newer documents to check it against.
// The change request is linked to the finding (listChangeRequestsForSiteFinding).

const cut = (s: string, n: number) => (s.length <= n ? s : s.slice(0, n - 1) + '…');

/**
 * A finding's records that may be quoted in a change request: those of connections whose
 * usageSettings.changeRequests is on (the contract: "whether to use context to propose change
 * requests"). A record whose connection is gone is left out too.
 */
function quotableRecords(tx: WriteTx, f: SiteFindingRecord) {
  return f.records
    .flatMap((id) => tx.get(ContextRecords, id) ?? [])
    .filter((r) => tx.get(ContextConnections, r.connection)?.usageSettings.changeRequests === true);
}

/** The space a finding's change request goes to. 412 when the site has no space. */
function spaceFor(tx: WriteTx, f: SiteFindingRecord): string {
  const ofSite = siteSpacesOfSite(tx, f.site).filter((ss) => !tx.get(Spaces, ss.space)?.deletedAt);
  const first = f.pages.find((p) => ofSite.some((ss) => ss.space === p.space));
  if (first) return first.space;
  const section = defaultSection(tx, f.site);
  const ss =
    ofSite.find((x) => x.default && (!section || x.section === section.id)) ??
    [...ofSite].sort((a, b) => Number(b.default) - Number(a.default) || a.id.localeCompare(b.id))[0];
  if (!ss) throw new DocsError('precondition', `site ${f.site} has no site space to open a change request in`);
  return ss.space;
}

/** The markdown with a link rewritten (`to`) or removed (its text kept). */
export function rewriteLink(markdown: string, url: string, to: string | undefined): string {
  const esc = url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (to !== undefined) return markdown.replace(new RegExp(`\\]\\(${esc}(\\s+"[^"]*")?\\)`, 'g'), (_m, title = '') => `](${to}${title})`);
  return markdown.replace(new RegExp(`(!?)\\[([^\\]]*)\\]\\(${esc}(\\s+"[^"]*")?\\)`, 'g'), (m, bang, text) => (bang ? m : text));
}

function gapPage(tx: WriteTx, f: SiteFindingRecord): { title: string; markdown: string } {
  const questions = f.questions.flatMap((id) => tx.get(AskQuestions, id) ?? []);
  const records = quotableRecords(tx, f);
  const lines = [`This page answers what the site's readers asked and found no page for. Write the answer, then remove the lists below.`, ''];
  if (questions.length) {
    lines.push('## Questions asked on the site', '');
    for (const q of questions) lines.push(`- ${mdText(q.text)} (asked ${q.count} time${q.count === 1 ? '' : 's'}, last on ${q.lastAskedAt.slice(0, 10)})`);
    lines.push('');
  }
  if (records.length) {
    lines.push('## Records', '');
    for (const r of records) {
      const what = r.url && /^https?:\/\//.test(r.url) ? `[${mdText(r.title)}](${r.url})` : mdText(r.title);
      lines.push(`- ${what} (${r.type}, ${r.connector})${r.description ? `: ${mdText(r.description)}` : ''}`);
    }
  }
  const title = cut(f.title.replace(/^No page answers: /, ''), 100);
  return { title, markdown: lines.join('\n').trim() + '\n' };
}

/** Opens the change request fixing a finding and links it; needs the edit right on the space (403). */
export function openFixChangeRequest(tx: WriteTx, ctx: Context, caller: Caller, f: SiteFindingRecord, parse: Parse): string {
  const spaceId = spaceFor(tx, f);
  const changes: any[] = [];
  if (f.type === 'broken-link') {
    const l = f.brokenLink;
    const node = l && pageNode(tx, l.space, l.page);
    if (l && node) {
      const hash = l.url.indexOf('#');
      const to = l.replacement ? `/pages/${l.replacement.page}` : hash > 0 ? l.url.slice(0, hash) : undefined;
      changes.push({ operation: 'update_page', page: l.page, document: { markdown: rewriteLink(markdownOf(tx, l.space, node), l.url, to) } });
    }
  } else if (f.type === 'content-outdated') {
    const page = f.pages[0]!;
    const node = pageNode(tx, page.space, page.page);
    const records = quotableRecords(tx, f);
    const list = records.map((r) => `> - ${r.url && /^https?:\/\//.test(r.url) ? `[${mdText(r.title)}](${r.url})` : mdText(r.title)}`).join('\n');
    const note = `> **Check this page**: these documents about it came in after it last changed:\n${list}\n\n`;
    if (node) changes.push({ operation: 'update_page', page: page.page, document: { markdown: note + markdownOf(tx, page.space, node) } });
  } else {
    const { title, markdown } = gapPage(tx, f);
    changes.push({ operation: 'insert_page', title, document: { markdown } });
  }
  const { cr } = createChangeRequest(tx, ctx, caller, spaceId, { subject: cut(f.title, SUBJECT_MAX) });
  const written = changes.length ? applyChanges(tx, ctx, caller, spaceId, cr.id, changes, new Map(), parse).cr : cr;
  const draft = tx.put(ChangeRequests, { ...written, status: 'draft' });
  // The agent wrote this draft for the caller: its conversation is kept with the change request
  // (listChangeRequestConversations, docs/manual/agents.md#change-request-conversations).
  recordChangeRequestConversation(tx, ctx, { changeRequest: draft, user: caller.userId, origin: `site-finding:${f.id}`, title: cut(f.title, SUBJECT_MAX) });
  tx.put(SiteFindings, { ...f, changeRequests: [...f.changeRequests, { space: spaceId, changeRequest: cr.id }], updatedAt: ctx.clock.now().toISOString() });
  return cr.id;
}

function pageNode(tx: WriteTx, spaceId: string, pageId: string) {
  const space = tx.get(Spaces, spaceId);
  const rev = space ? tx.get(Revisions, space.revision) : undefined;
  return rev ? flatten(treeOf(tx, rev)).find((l) => l.node.id === pageId)?.node : undefined;
}
