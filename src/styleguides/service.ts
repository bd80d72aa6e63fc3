import { createChangeRequest } from '../change-requests/service.js';
import { recordChangeRequestConversation } from '../agents/cr-conversations.js';
import { applyChanges } from '../change-requests/authoring.js';
import { crsOf } from '../change-requests/lookup.js';
import { ChangeRequests } from '../change-requests/tables.js';
import { runBatch } from '../content/authoring.js';
import type { Parse } from '../content/link-refs.js';
import type { PageNode } from '../content/model.js';
import { commitRevision, markdownOf, treeOf } from '../content/revisions.js';
import type { Caller, Context } from '../kernel/context.js';
import { DocsError, invalid } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { siteOf } from '../sites/access.js';
import { siteSpacesOfSite } from '../sites/rows.js';
import { Sites } from '../sites/tables.js';
import type { SpaceRecord } from '../spaces/model.js';
import { createSpace, requireContentEdit } from '../spaces/service.js';
import { Revisions, Spaces } from '../spaces/tables.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { STYLEGUIDE_LIMITS, type StyleguideFinding, type StyleguideRunRecord } from './model.js';
import { checkPage, parseRules } from './rules.js';
import { StyleguideRuns } from './tables.js';
import { BLANK_STYLEGUIDE, STYLEGUIDE_TEMPLATES } from './templates.js';

// A site's style guide (a space of type `styleguide`) and its check runs: the rules read from the
// style guide's pages, each space checked at its current revision, the findings kept on the run,
// and the terms to avoid replaced in a draft change request per space. docs/manual/styleguides.md

/** The document pages of a revision of a space (by default its current one), in order, with their markdown. */
export function pagesOf(tx: ReadTx, space: SpaceRecord, revision = space.revision): { node: PageNode; markdown: string }[] {
  const rev = tx.get(Revisions, revision);
  if (!rev) return [];
  const out: { node: PageNode; markdown: string }[] = [];
  const walk = (pages: readonly PageNode[]) => {
    for (const p of pages) {
      if (p.type === 'document') out.push({ node: p, markdown: markdownOf(tx, space.id, p) });
      walk(p.pages ?? []);
    }
  };
  walk(treeOf(tx, rev));
  return out;
}

/** The site's style guide space, when it has a live one. */
export function styleguideOf(tx: ReadTx, site: { styleguide?: string }): SpaceRecord | undefined {
  const sg = site.styleguide ? tx.get(Spaces, site.styleguide) : undefined;
  return sg && !sg.deletedAt ? sg : undefined;
}

/**
 * The site's style guide, made on first call (a space of type `styleguide`, seeded with the
 * template's page or a blank one) and attached to the site; later calls answer the same space.
 * Site admins only (it changes the site and adds a space to the organization).
 */
export function ensureStyleguide(
  tx: WriteTx,
  ctx: Context,
  caller: Caller,
  organizationId: string,
  siteId: string,
  template: string | undefined,
  parse: Parse,
) {
  const { site } = siteOf(tx, caller, organizationId, siteId, 'admin', `making the style guide of site ${siteId}`);
  const t = template === undefined ? undefined : STYLEGUIDE_TEMPLATES.find((x) => x.id === template);
  if (template !== undefined && !t)
    throw invalid(`template: no style guide template ${template} (templates: ${STYLEGUIDE_TEMPLATES.map((x) => x.id).join(', ')})`);
  const existing = styleguideOf(tx, site);
  if (existing) return { space: existing, created: false };
  const { row } = createSpace(tx, ctx, caller, organizationId, { title: `${site.title} style guide`.slice(0, 50), emoji: t?.emoji ?? '✏️' });
  const res = runBatch(
    tx,
    ctx,
    row.id,
    row.revision,
    row.revision,
    [{ operation: 'insert_page', title: t?.title ?? 'Style guide', document: { markdown: t?.markdown ?? BLANK_STYLEGUIDE } }],
    new Map(),
    parse,
    true,
  );
  const rev = commitRevision(tx, ctx, row.id, [row.revision], {
    pages: res.pages,
    files: res.files,
    message: `Style guide${t ? ` from template ${t.id}` : ''}`,
    author: caller.userId,
  });
  const now = ctx.clock.now().toISOString();
  const space = tx.put(Spaces, { ...row, type: 'styleguide', revision: rev.id, updatedAt: now });
  tx.put(Sites, { ...site, styleguide: space.id, updatedAt: now });
  return { space, created: true };
}

/**
 * A check run: each space (one to three of the site's, editable by the caller, not the style
 * guide) checked against the style guide's rules; the terms to avoid replaced in the space's
 * open style guide change request (taken over) or a new draft one. 412 when the site has no style guide.
 */
export function runCheck(tx: WriteTx, ctx: Context, caller: Caller, organizationId: string, siteId: string, spaceIds: readonly string[], parse: Parse) {
  const { site } = siteOf(tx, caller, organizationId, siteId, 'edit', `checking site ${siteId} against its style guide`);
  // The caller's rights on the spaces first: a member who may not edit them learns nothing more (403).
  const ofSite = new Set(siteSpacesOfSite(tx, site.id).map((ss) => ss.space));
  if (new Set(spaceIds).size !== spaceIds.length) throw invalid('spaces: a space is listed twice');
  const spaces = spaceIds.map((id, i) => {
    if (!ofSite.has(id) && styleguideOf(tx, site)?.id !== id) throw invalid(`spaces[${i}]: space ${id} is not in site ${site.id}`);
    return requireContentEdit(tx, caller, id).row;
  });
  const sg = styleguideOf(tx, site);
  if (!sg) throw new DocsError('precondition', `site ${site.id} has no style guide: make one first (POST /orgs/${organizationId}/sites/${site.id}/styleguide)`);
  const self = spaceIds.indexOf(sg.id);
  if (self >= 0) throw invalid(`spaces[${self}]: ${sg.id} is the style guide itself`);
  const rules = parseRules(pagesOf(tx, sg).map((p) => p.markdown));
  const now = ctx.clock.now().toISOString();
  const runId = newId();
  const findings: StyleguideFinding[] = [];
  let findingsTotal = 0;
  const changeRequests: StyleguideRunRecord['changeRequests'] = [];
  for (const space of spaces) {
    // Findings: the space as it is (its current revision, what the site shows).
    for (const { node, markdown } of pagesOf(tx, space)) {
      const check = checkPage(markdown, rules);
      findingsTotal += check.findings.length;
      for (const f of check.findings) if (findings.length < STYLEGUIDE_LIMITS.findings) findings.push({ space: space.id, page: node.id, ...f });
    }
    // The space's style guide change request still open (draft or open) is taken over; else a new draft.
    const open = crsOf(tx, space.id)
      .filter((cr) => cr.styleguide?.site === site.id && (cr.status === 'draft' || cr.status === 'open'))
      .sort((a, b) => b.number - a.number)[0];
    const cr = open ?? createChangeRequest(tx, ctx, caller, space.id, { subject: 'Style guide check' }).cr;
    // Fixes: the terms replaced in the change request's own pages (a new one's are the space's;
    // one taken over keeps its edits, and its pages are checked as they are there).
    const changes: { operation: 'update_page'; page: string; document: { markdown: string } }[] = [];
    for (const { node, markdown } of pagesOf(tx, space, cr.revision)) {
      const fixed = checkPage(markdown, rules).fixed;
      if (fixed !== undefined) changes.push({ operation: 'update_page', page: node.id, document: { markdown: fixed } });
    }
    const written = changes.length ? applyChanges(tx, ctx, caller, space.id, cr.id, changes, new Map(), parse).cr : tx.get(ChangeRequests, cr.id)!;
    const fixDraft = tx.put(ChangeRequests, {
      ...written,
      ...(open ? {} : { status: 'draft' as const }),
      styleguide: { site: site.id, run: open?.styleguide?.run ?? runId, changedPages: changes.length, checkedAt: now },
    });
    // The check acts as the agent on the caller's behalf: its conversation in the fix draft, continued
    // by each run that takes the draft over (docs/manual/agents.md#change-request-conversations).
    recordChangeRequestConversation(tx, ctx, {
      changeRequest: fixDraft,
      user: caller.userId,
      origin: `styleguide-run:${runId}`,
      title: `Style guide check of site ${site.title || site.id}`,
    });
    changeRequests.push({ space: space.id, changeRequest: cr.id, changedPages: changes.length });
  }
  const run = tx.put(StyleguideRuns, {
    id: runId,
    organization: organizationId,
    site: site.id,
    styleguide: sg.id,
    spaces: [...spaceIds],
    createdAt: now,
    createdBy: caller.userId,
    findings,
    findingsTotal,
    changeRequests,
  });
  const runs = tx.find(StyleguideRuns, 'site', site.id);
  if (runs.length > STYLEGUIDE_LIMITS.runs) {
    const drop = runs.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)).slice(0, runs.length - STYLEGUIDE_LIMITS.runs);
    for (const r of drop) tx.delete(StyleguideRuns, r.id);
  }
  return run;
}

/** A site's runs, the most recent first. */
export function runsOf(tx: ReadTx, siteId: string): StyleguideRunRecord[] {
  return tx.find(StyleguideRuns, 'site', siteId).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

/** Removes the check runs of a deleted site (src/site-deletion.ts); its style guide space stays, as spaces do. */
export function removeSiteStyleguideRuns(tx: WriteTx, siteId: string): void {
  for (const r of tx.find(StyleguideRuns, 'site', siteId)) tx.delete(StyleguideRuns, r.id);
}
