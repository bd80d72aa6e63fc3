import { linkUrlProblem } from '../content/link-pages.js';
import { loadParser } from '../content/link-refs.js';
import { pageOf } from '../content/revisions.js';
import { applyTemplate } from '../content/templates.js';
import { Integrations, IntegrationInstallations } from '../integrations/tables.js';
import { apiUrl, type Caller, type Context } from '../kernel/context.js';
import { conflict, invalid } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import type { Role } from '../kernel/roles.js';
import { paginate } from '../kernel/pagination.js';
import { duplicateSpace } from '../spaces/relocate.js';
import { createSpace } from '../spaces/service.js';
import { Revisions, Spaces } from '../spaces/tables.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { SITE_ADMIN, SITE_READ, siteOf, type SiteSeen } from './access.js';
import * as agents from './agents.js';
import { defaultCustomization } from './customization.js';
import type { SiteChannelRecord, SiteRecord } from './model.js';
import { SitePresenter } from './present.js';
import { hasSections, sectionsOf, siteSpacesIn, siteSpacesOfSite } from './rows.js';
import { addSection, sectionAfter } from './sections.js';
import { insertSiteSpace, siteSpaceOf } from './site-spaces.js';
import { type EventValues, recordEvents } from './insights.js';
import { SiteChannels, SiteSections, SiteSpaces, Sites } from './tables.js';

// A site's agent channels, external links, agent settings and agent feedback, duplicating a site
// space and the site template (docs/manual/site-agents.md). The rules are in agents.ts; what
// needs another area is here: a channel's integration, a link's URL rule, content for copies and
// the template, insights for feedback.

type P = Record<string, string>;

const write = <R>(ctx: Context, caller: Caller, path: P, need: Role, action: string, fn: (tx: WriteTx, seen: SiteSeen) => R) =>
  ctx.store.write((tx) => fn(tx, siteOf(tx, caller, path.organizationId!, path.siteId!, need, action)));
const read = <R>(ctx: Context, caller: Caller, path: P, action: string, fn: (tx: ReadTx, seen: SiteSeen) => R) =>
  ctx.store.read((tx) => fn(tx, siteOf(tx, caller, path.organizationId!, path.siteId!, SITE_READ, action)));
const sitePath = (path: P, rest: string) => `/orgs/${path.organizationId}/sites/${path.siteId}${rest}`;

// ---- Channels ----------------------------------------------------------------------------------

/** The integration each channel type works through: its name, as published (`slack`, ...). */
const integrationName = (r: SiteChannelRecord) => r.type.slice('builtin:'.length);

/**
 * A channel is `active` once the organization has an active installation of the tool's
 * integration (an integration named `slack`, `linear`, `github` or `discord`) that covers the
 * site; `pending` until then: this server makes no connection to the tool itself.
 */
function isActive(tx: ReadTx, site: SiteRecord, r: SiteChannelRecord): boolean {
  return tx.find(IntegrationInstallations, 'organization', site.organization).some((inst) => {
    if (inst.status !== 'active') return false;
    if (inst.site_selection !== 'all' && inst.siteInstalls?.[site.id] === undefined) return false;
    return tx.get(Integrations, inst.integration)?.name === integrationName(r);
  });
}

const showChannel = (ctx: Context, tx: ReadTx, site: SiteRecord, r: SiteChannelRecord) => agents.presentChannel(ctx, r, isActive(tx, site, r));

export const listSiteChannels = defineOperation('listSiteChannels', ({ ctx, caller, path, query }) =>
  read(ctx, caller, path, 'listing the channels of a site', (tx, { site }) => {
    const all = tx.find(SiteChannels, 'site', site.id).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    return { status: 200, body: paginate(all, query, (r) => showChannel(ctx, tx, site, r)) as any };
  }),
);

export const createSiteChannel = defineOperation('createSiteChannel', async ({ ctx, caller, path, body }) => {
  const id = await write(ctx, caller, path, SITE_ADMIN, 'adding a channel to a site', (tx, { site }) => agents.createChannel(tx, ctx, site, body as any).id);
  return {
    status: 201,
    headers: { Location: apiUrl(ctx, sitePath(path, `/channels/${id}`)) },
    body: await read(ctx, caller, path, 'reading a channel of a site', (tx, { site }) => showChannel(ctx, tx, site, agents.channelOf(tx, site, id))),
  };
});

export const getSiteChannelById = defineOperation('getSiteChannelById', ({ ctx, caller, path }) =>
  read(ctx, caller, path, 'reading a channel of a site', (tx, { site }) => ({
    status: 200,
    body: showChannel(ctx, tx, site, agents.channelOf(tx, site, path.siteChannelId!)),
  })),
);

export const updateSiteChannelById = defineOperation('updateSiteChannelById', async ({ ctx, caller, path, body }) => {
  await write(ctx, caller, path, SITE_ADMIN, 'changing a channel of a site', (tx, { site }) =>
    agents.updateChannel(tx, ctx, site, path.siteChannelId!, body as any),
  );
  return {
    status: 200,
    body: await read(ctx, caller, path, 'reading a channel of a site', (tx, { site }) =>
      showChannel(ctx, tx, site, agents.channelOf(tx, site, path.siteChannelId!)),
    ),
  };
});

export const deleteSiteChannelById = defineOperation('deleteSiteChannelById', async ({ ctx, caller, path }) => {
  const deleted = await write(ctx, caller, path, SITE_ADMIN, 'removing a channel of a site', (tx, { site }) =>
    agents.deleteChannel(tx, site, path.siteChannelId!),
  );
  return { status: deleted ? 205 : 204 };
});

// ---- External links ----------------------------------------------------------------------------

/** A link's URL, by the rule of link pages (src/content/link-pages.ts): http, https or mailto, no credentials, 2,048 characters at most. */
function linkUrl(u: string): string {
  const problem = linkUrlProblem(u);
  if (problem) throw invalid(`url: ${problem}`);
  return u;
}

export const addExternalLinkToSite = defineOperation('addExternalLinkToSite', async ({ ctx, caller, path, body }) => {
  const r = await write(ctx, caller, path, SITE_ADMIN, `changing site ${path.siteId}`, (tx, { site }) =>
    agents.addExternalLink(tx, ctx, site, body as any, linkUrl),
  );
  return {
    status: 201,
    headers: { Location: apiUrl(ctx, sitePath(path, `/external-links/${r.id}`)) },
    body: agents.presentExternalLink(r),
  };
});

export const updateSiteExternalLinkById = defineOperation('updateSiteExternalLinkById', async ({ ctx, caller, path, body }) => ({
  status: 200,
  body: agents.presentExternalLink(
    await write(ctx, caller, path, SITE_ADMIN, `changing site ${path.siteId}`, (tx, { site }) =>
      agents.updateExternalLink(tx, site, path.siteExternalLinkId!, body as any, linkUrl),
    ),
  ),
}));

export const deleteSiteExternalLinkById = defineOperation('deleteSiteExternalLinkById', async ({ ctx, caller, path }) => {
  const deleted = await write(ctx, caller, path, SITE_ADMIN, `changing site ${path.siteId}`, (tx, { site }) =>
    agents.deleteExternalLink(tx, site, path.siteExternalLinkId!),
  );
  return { status: deleted ? 205 : 204 };
});

// ---- Agent settings ----------------------------------------------------------------------------

export const getSiteAgentSettingsById = defineOperation('getSiteAgentSettingsById', ({ ctx, caller, path }) =>
  read(ctx, caller, path, 'reading the agent settings of a site', (tx, { site }) => ({
    status: 200,
    body: agents.presentAgentSettings(ctx, agents.agentSettingsOf(tx, site)),
  })),
);

export const updateSiteAgentSettingsById = defineOperation('updateSiteAgentSettingsById', async ({ ctx, caller, path, body }) => ({
  status: 200,
  body: agents.presentAgentSettings(
    ctx,
    await write(ctx, caller, path, SITE_ADMIN, 'changing the agent settings of a site', (tx, { site }) =>
      agents.putAgentSettings(tx, ctx, caller, site, body as any),
    ),
  ),
}));

// ---- Agent feedback ----------------------------------------------------------------------------

const clip = (s: unknown, n: number) => (typeof s === 'string' ? s.slice(0, n) : undefined);

/** One agent_feedback event of the site (its insights: docs/manual/insights.md); the batch's id. */
function recordFeedback(tx: WriteTx, ctx: Context, site: SiteRecord, values: EventValues): string {
  const now = ctx.clock.now();
  const batch = recordEvents(
    tx,
    site,
    [{ ts: now.getTime(), type: 'agent_feedback', values: { visitor: '', session: '', device: 'unknown', browser: 'unknown', os: 'unknown', ...values } }],
    now,
  );
  return batch!.id;
}

/** The deprecated form: feedback about a page of the site; the space must be the site's and the page in it (400 otherwise). */
export const submitSiteAgentFeedback = defineOperation('submitSiteAgentFeedback', async ({ ctx, caller, path, body }) => {
  const b = body as { feedback: string; goal?: string; url: string; spaceId: string; pageId: string; source?: string };
  await write(ctx, caller, path, SITE_READ, `sending feedback to site ${path.siteId}`, (tx, { site }) => {
    const ss = siteSpacesOfSite(tx, site.id).find((x) => x.space === b.spaceId);
    if (!ss) throw invalid(`spaceId: space ${b.spaceId} is not in site ${site.id}`);
    const space = tx.get(Spaces, b.spaceId);
    const rev = space && tx.get(Revisions, space.revision);
    if (!rev || !pageOf(tx, rev, b.pageId)) throw invalid(`pageId: no page ${b.pageId} in space ${b.spaceId}`);
    recordFeedback(tx, ctx, site, {
      url: b.url,
      space: b.spaceId,
      siteSpace: ss.id,
      page: b.pageId,
      comment: b.feedback,
      query: clip(b.goal, 1024) ?? null,
      agentSource: b.source ?? 'unknown',
      agentSubject: JSON.stringify({ kind: 'documentation', url: b.url }),
      agentCategory: 'documentation',
    });
  });
  return { status: 204 };
});

export const submitAgentFeedbackToSite = defineOperation('submitAgentFeedbackToSite', async ({ ctx, caller, path, body }) => {
  const b = body as {
    reportedBy?: { model?: string; userAgent?: string; correlationId?: string; onDemand?: boolean };
    subject: { kind: string; url?: string; [k: string]: unknown };
    feedback: { category: string; severity?: string; goal?: string; summary: string; detail?: string; workaround?: string };
  };
  const id = await write(ctx, caller, path, SITE_READ, `sending feedback to site ${path.siteId}`, (tx, { site }) =>
    recordFeedback(tx, ctx, site, {
      url: b.subject.kind === 'documentation' ? (b.subject.url ?? null) : null,
      comment: [b.feedback.summary, b.feedback.detail, b.feedback.workaround && `Workaround: ${b.feedback.workaround}`].filter(Boolean).join('\n\n'),
      query: b.feedback.goal ?? null,
      agentSource: b.subject.kind === 'mcp-tool' ? 'mcp' : 'api',
      agentSubject: JSON.stringify(b.subject),
      agentCategory: b.feedback.category,
      agentSeverity: b.feedback.severity ?? null,
      agentModel: b.reportedBy?.model ?? null,
    }),
  );
  return {
    status: 201,
    body: {
      id,
      result: `Thank you: the feedback is recorded in the insights of site ${path.siteId} (event agent_feedback), where its members read it. Nothing else is done with it automatically.`,
    },
  };
});

// ---- Duplicating a site space ------------------------------------------------------------------

/**
 * POST site-spaces/{id}/duplicate: a copy of the space (its content, as duplicateSpace makes
 * it) put on the site where the spec says: the only variant of a section gets a new section
 * right after it; otherwise the copy is a variant beside it. `draft: true` adds it hidden (not
 * served until shown: updateSiteSpaceById `hidden: false`).
 */
export const duplicateSiteSpace = defineOperation('duplicateSiteSpace', async ({ ctx, caller, path, body }) => {
  const draft = (body as { draft?: boolean } | undefined)?.draft === true;
  const ssId = await write(ctx, caller, path, SITE_ADMIN, `changing site ${path.siteId}`, (tx, { site }) => {
    const ss = siteSpaceOf(tx, site, path.siteSpaceId!);
    const { row: copy } = duplicateSpace(tx, ctx, caller, ss.space);
    let section = ss.section;
    if (section && siteSpacesIn(tx, site.id, section).length === 1) section = sectionAfter(tx, ctx, site, tx.get(SiteSections, section)!, copy.title).id;
    const added = insertSiteSpace(tx, ctx, site, copy, section);
    return tx.put(SiteSpaces, { ...added, hidden: draft, ...(ss.condition !== undefined ? { condition: ss.condition } : {}) }).id;
  });
  return {
    status: 201,
    headers: { Location: apiUrl(ctx, sitePath(path, `/site-spaces/${ssId}`)) },
    body: await ctx.store.read((tx) => {
      const seen = siteOf(tx, caller, path.organizationId!, path.siteId!, SITE_READ, 'reading sites');
      return new SitePresenter(tx, ctx, caller, seen.org, seen.site).siteSpace(tx.get(SiteSpaces, ssId)!);
    }),
  };
});

// ---- The site template -------------------------------------------------------------------------

/** The default documentation structure: a section per space, each space filled with a content template (src/content/templates.ts). */
export const SITE_TEMPLATE = [
  { title: 'Getting started', template: 'getting-started' },
  { title: 'API reference', template: 'api-reference' },
] as const;

/**
 * POST template: fills an empty site (no site spaces, no sections) with the default
 * documentation: two new spaces with their content, each in a section of its own, and page
 * feedback turned on. A site that has content is a 409 and stays as it is.
 */
export const applyTemplateToSite = defineOperation('applyTemplateToSite', async ({ ctx, caller, path }) => {
  const parse = await loadParser();
  await write(ctx, caller, path, SITE_ADMIN, `applying the template to site ${path.siteId}`, (tx, { site }) => {
    if (siteSpacesOfSite(tx, site.id).length || hasSections(tx, site.id))
      throw conflict(`site ${site.id} is not empty: the template fills a site without spaces (remove its spaces and sections first, or start a new site)`);
    for (const t of SITE_TEMPLATE) {
      const { row: space } = createSpace(tx, ctx, caller, site.organization, { title: t.title });
      applyTemplate(tx, ctx, caller, space.id, { id: t.template }, parse);
      addSection(tx, ctx, caller, tx.get(Sites, site.id)!, { spaceId: space.id, title: t.title });
    }
    const current = tx.get(Sites, site.id)!;
    const customization = { ...(current.customization ?? defaultCustomization()), feedback: { enabled: true } };
    tx.put(Sites, { ...current, customization, updatedAt: ctx.clock.now().toISOString() });
    return sectionsOf(tx, site.id).length;
  });
  return { status: 200 };
});
