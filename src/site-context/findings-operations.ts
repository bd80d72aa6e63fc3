import { SiteQuestions, presentQuestion } from '../ask/site-questions.js';
import { presentChangeRequest } from '../change-requests/present.js';
import { ChangeRequests } from '../change-requests/tables.js';
import { loadParser } from '../content/link-refs.js';
import type { Caller } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import type { Role } from '../kernel/roles.js';
import { SITE_READ, siteOf } from '../sites/access.js';
import type { ReadTx } from '../store/port.js';
import { SiteFindings, SiteScans, SiteTopics } from './finding-tables.js';
import { openFixChangeRequest } from './findings-fix.js';
import { presentRecord } from './records.js';
import { liveFindings, presentFinding, presentFindingPages, presentScan, presentTopic } from './findings-present.js';
import { checkFilter, findingOf, findingStats, matches, ordered, type FindingFilter } from './findings-query.js';
import { ContextRecords } from './tables.js';

// The documentation agent's findings on a site (0.202.0): scans, findings, topics, and the change
// requests that fix a finding. Reads need the read role on the site; changes, the edit role
// (as a style guide run: they open change requests or decide what the team works on).
// docs/manual/site-findings.md

/** The edit role on a site: changing a finding or a topic, opening a change request for one. */
export const SITE_EDIT: Role = 'edit';

const seen = (tx: ReadTx, caller: Caller, path: { organizationId: string; siteId: string }, need: Role, action: string) =>
  siteOf(tx, caller, path.organizationId, path.siteId, need, `${action} of site ${path.siteId}`).site;

function topicOf(tx: ReadTx, site: string, id: string) {
  const t = tx.get(SiteTopics, id);
  if (!t || t.site !== site) throw notFound(`site topic ${id} not found in site ${site}`);
  return t;
}

export const listSiteScans = defineOperation('listSiteScans', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const site = seen(tx, caller, path, SITE_READ, 'reading the scans');
    if (query.topic !== undefined && tx.get(SiteTopics, query.topic)?.site !== site.id) throw invalid(`topic: no topic ${query.topic} in site ${site.id}`);
    const scans = tx
      .find(SiteScans, 'site', site.id)
      // Scans are of the whole site: none is of one topic.
      .filter((s) => (query.status === undefined || s.status === query.status) && query.topic === undefined)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
    return { status: 200, body: paginate(scans, query, (s) => presentScan(ctx, s)) };
  }),
);

export const getSiteScanById = defineOperation('getSiteScanById', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const site = seen(tx, caller, path, SITE_READ, 'reading a scan');
    const s = tx.get(SiteScans, path.siteScanId);
    if (!s || s.site !== site.id) throw notFound(`site scan ${path.siteScanId} not found in site ${site.id}`);
    return { status: 200, body: presentScan(ctx, s) };
  }),
);

export const listSiteFindings = defineOperation('listSiteFindings', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const site = seen(tx, caller, path, SITE_READ, 'reading the findings');
    const filter = query as FindingFilter;
    checkFilter(tx, site.organization, site.id, filter);
    const shown = ordered(
      liveFindings(tx, site.id).filter((f) => matches(f, filter)),
      query.orderBy,
    );
    return { status: 200, body: paginate(shown, query, (f) => presentFinding(ctx, f)) };
  }),
);

export const getSiteFindingStats = defineOperation('getSiteFindingStats', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const site = seen(tx, caller, path, SITE_READ, 'reading the finding stats');
    checkFilter(tx, site.organization, site.id, query as FindingFilter);
    return { status: 200, body: findingStats(tx, site.id, query as FindingFilter) };
  }),
);

export const getSiteFindingById = defineOperation('getSiteFindingById', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const site = seen(tx, caller, path, SITE_READ, 'reading a finding');
    return { status: 200, body: presentFinding(ctx, findingOf(tx, site.id, path.siteFindingId)) };
  }),
);

export const updateSiteFindingById = defineOperation('updateSiteFindingById', ({ ctx, caller, path, body }) =>
  ctx.store.write((tx) => {
    const site = seen(tx, caller, path, SITE_EDIT, 'changing a finding');
    const f = findingOf(tx, site.id, path.siteFindingId);
    const status = body.status;
    // A person's decision: later scans keep it (docs/manual/site-findings.md#re-scans-and-statuses).
    const next =
      f.status === status && f.statusBy === 'person' ? f : tx.put(SiteFindings, { ...f, status, statusBy: 'person', updatedAt: ctx.clock.now().toISOString() });
    return { status: 200, body: presentFinding(ctx, next) };
  }),
);

export const listChangeRequestsForSiteFinding = defineOperation('listChangeRequestsForSiteFinding', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const site = seen(tx, caller, path, SITE_READ, 'reading the change requests of a finding');
    const f = findingOf(tx, site.id, path.siteFindingId);
    const crs = f.changeRequests
      .flatMap((c) => tx.get(ChangeRequests, c.changeRequest) ?? [])
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
    return { status: 200, body: paginate(crs, query, (cr) => presentChangeRequest(ctx, tx, cr, site.organization)) };
  }),
);

export const triggerChangeRequestsForSiteFinding = defineOperation('triggerChangeRequestsForSiteFinding', async ({ ctx, caller, path }) => {
  const parse = await loadParser();
  await ctx.store.write((tx) => {
    const site = seen(tx, caller, path, SITE_EDIT, 'opening a change request for a finding');
    const f = findingOf(tx, site.id, path.siteFindingId);
    if (f.status === 'done' || f.status === 'canceled') throw invalid(`siteFindingId: finding ${f.id} is ${f.status}: reopen it first (status open)`);
    // The topic's usageSettings.changeRequests says whether its context may propose change requests.
    const topic = f.topic ? tx.get(SiteTopics, f.topic) : undefined;
    if (topic && !topic.usageSettings.changeRequests)
      throw invalid(
        `siteFindingId: finding ${f.id} is in topic ${topic.id}, whose usageSettings.changeRequests is false: turn it on to open change requests for its findings`,
      );
    openFixChangeRequest(tx, ctx, caller, f, parse);
  });
  return { status: 202 };
});

export const listPagesForSiteFinding = defineOperation('listPagesForSiteFinding', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const site = seen(tx, caller, path, SITE_READ, 'reading the pages of a finding');
    const f = findingOf(tx, site.id, path.siteFindingId);
    return { status: 200, body: paginate(presentFindingPages(tx, f.pages), query) };
  }),
);

export const listQuestionsForSiteFinding = defineOperation('listQuestionsForSiteFinding', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const site = seen(tx, caller, path, SITE_READ, 'reading the questions of a finding');
    const f = findingOf(tx, site.id, path.siteFindingId);
    const sq = new SiteQuestions(ctx, tx, site.organization, site.id);
    const questions = f.questions.flatMap((id) => sq.questions.find((q) => q.id === id) ?? []);
    return { status: 200, body: paginate(questions, query, (q) => presentQuestion(sq, q, sq.answersOfQuestion(q.id))) };
  }),
);

export const listRecordsForSiteFinding = defineOperation('listRecordsForSiteFinding', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const site = seen(tx, caller, path, SITE_READ, 'reading the records of a finding');
    const f = findingOf(tx, site.id, path.siteFindingId);
    const topics = tx.find(SiteTopics, 'site', site.id);
    const records = f.records.flatMap((id) => tx.get(ContextRecords, id) ?? []).filter((r) => r.site === site.id);
    return {
      status: 200,
      body: paginate(records, query, (r) =>
        presentRecord(
          ctx,
          r,
          topics.filter((t) => t.records.includes(r.id)).map((t) => t.id),
        ),
      ),
    };
  }),
);

export const listSiteTopics = defineOperation('listSiteTopics', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const site = seen(tx, caller, path, SITE_READ, 'reading the topics');
    if (query.from !== undefined && query.to !== undefined && Date.parse(query.from) > Date.parse(query.to))
      throw invalid(`from: ${query.from} is after to (${query.to})`);
    const sq = new SiteQuestions(ctx, tx, site.organization, site.id);
    const topics = tx
      .find(SiteTopics, 'site', site.id)
      .sort(
        (a, b) => b.questions.length + b.records.length - (a.questions.length + a.records.length) || a.label.localeCompare(b.label) || a.id.localeCompare(b.id),
      );
    return { status: 200, body: { items: topics.map((t) => presentTopic(ctx, tx, t, sq, { from: query.from, to: query.to })) } };
  }),
);

export const getSiteTopicById = defineOperation('getSiteTopicById', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const site = seen(tx, caller, path, SITE_READ, 'reading a topic');
    const t = topicOf(tx, site.id, path.siteTopicId);
    return { status: 200, body: presentTopic(ctx, tx, t, new SiteQuestions(ctx, tx, site.organization, site.id)) };
  }),
);

export const updateSiteTopicById = defineOperation('updateSiteTopicById', ({ ctx, caller, path, body }) =>
  ctx.store.write((tx) => {
    const site = seen(tx, caller, path, SITE_EDIT, 'changing a topic');
    const t = topicOf(tx, site.id, path.siteTopicId);
    const next = tx.put(SiteTopics, { ...t, usageSettings: { changeRequests: body.usageSettings.changeRequests }, updatedAt: ctx.clock.now().toISOString() });
    return { status: 200, body: presentTopic(ctx, tx, next, new SiteQuestions(ctx, tx, site.organization, site.id)) };
  }),
);

export const deleteSiteTopicFindings = defineOperation('deleteSiteTopicFindings', ({ ctx, caller, path }) =>
  ctx.store.write((tx) => {
    const site = seen(tx, caller, path, SITE_EDIT, "deleting a topic's findings");
    const t = tx.get(SiteTopics, path.siteTopicId);
    // An unknown topic is the contract's 204 ("had no findings or did not exist").
    if (!t || t.site !== site.id) return { status: 204 };
    const now = ctx.clock.now().toISOString();
    const mine = liveFindings(tx, site.id).filter((f) => f.topic === t.id);
    // Kept as tombstones: a later scan makes one again only once it has more evidence than now.
    for (const f of mine) tx.put(SiteFindings, { ...f, deletedAt: now, deletedEvidence: f.questions.length + f.records.length, updatedAt: now });
    return { status: mine.length ? 205 : 204 };
  }),
);
