import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';
import { listAll } from './pages.js';
import { TOKENS_PATH } from './tokens.js';

// Pickers: on a terminal, an id argument left out is chosen from a list instead of typed. One
// registry keyed by the argument's name (the contract's path parameter names: spaceId, siteId,
// changeRequestId, ...), so every command with such an argument gets its picker without code of
// its own: operation commands ask in operation-command.ts, hand-written ones in base.ts (parse).
// Arguments are asked in order, so a picker sees the answers before it (a change request is
// chosen among those of the space chosen just before).

export interface Choice {
  name: string;
  value: string;
}

/** What a picker knows: the values given or chosen so far, the command's flags, its organization. */
export interface PickContext {
  transport: Transport;
  /** Argument values so far (given on the command line or chosen), by name; organizationId when known. */
  values: Record<string, string | undefined>;
  flags: Record<string, any>;
  /** The command's organization (--org, DOCS_ORG, the only one, or picked), for a command that has one. */
  organization?: () => Promise<string>;
}

export interface Picker {
  /** The prompt's label, in words ("Change request"). */
  label: string;
  choices(ctx: PickContext): Promise<Choice[]>;
}

interface Titled {
  id: string;
  title?: string;
  [k: string]: any;
}

/**
 * The organizations to list in: the command's (or the one already chosen), else every one of
 * the caller's, then each item is labelled with its organization when there are several.
 */
async function inOrganizations(
  ctx: PickContext,
  operationId: string,
  path: Record<string, string>,
  name: (item: any) => string,
  value: (item: any) => string = (i) => i.id,
): Promise<Choice[]> {
  const known = ctx.values.organizationId ?? (ctx.organization ? await ctx.organization() : undefined);
  const orgs = known ? [{ id: known, title: '' }] : await listAll<Titled>(ctx.transport, 'listOrganizationsForAuthenticatedUser', {});
  const out: Choice[] = [];
  for (const org of orgs) {
    for (const item of await listAll<any>(ctx.transport, operationId, { organizationId: org.id, ...path })) {
      out.push({ name: orgs.length > 1 ? `${name(item)} (${org.title})` : name(item), value: value(item) });
    }
  }
  return out;
}

/** A value the picker needs from an earlier argument (asked before it, so present). */
function need(ctx: PickContext, name: string, label: string): string {
  const v = ctx.values[name];
  if (v === undefined) throw new DocsError('invalid', `${label}: give the ${name.replace(/Id$/, '')} first`);
  return v;
}

/** A site's children need the site's organization: the command's, else the one holding the site. */
async function siteScope(ctx: PickContext): Promise<Record<string, string>> {
  const siteId = need(ctx, 'siteId', 'site');
  const organizationId = ctx.values.organizationId ?? (ctx.organization ? await ctx.organization() : await orgOfSite(ctx.transport, siteId));
  return { organizationId, siteId };
}

async function orgOfSite(transport: Transport, siteId: string): Promise<string> {
  for (const org of await listAll<Titled>(transport, 'listOrganizationsForAuthenticatedUser', {})) {
    if ((await listAll<Titled>(transport, 'listSites', { organizationId: org.id })).some((s) => s.id === siteId)) return org.id;
  }
  throw new DocsError('not_found', `site ${siteId} not found in your organizations`);
}

const first = (text: string | undefined, max = 60) => {
  const line = String(text ?? '')
    .split('\n')[0]!
    .trim();
  return line.length > max ? line.slice(0, max - 1) + '…' : line;
};

/** The change request whose items are listed: an earlier argument, or --change-request. */
const changeRequestOf = (ctx: PickContext): string | undefined => ctx.values.changeRequestId ?? ctx.flags['change-request'];

/** A page tree (listPages), flattened, indented by depth; links are not pages to act on. */
function pageChoices(pages: any[], depth = 0): Choice[] {
  return pages.flatMap((p) => [
    ...(p.type === 'link' ? [] : [{ name: `${'  '.repeat(depth)}${p.title}${p.path ? ` (${p.path})` : ''}`, value: p.id }]),
    ...pageChoices(p.pages ?? [], depth + 1),
  ]);
}

/** The documents of a page tree: each page's body (`documentId`), named after its page. */
function documentChoices(pages: any[], depth = 0): Choice[] {
  return pages.flatMap((p) => [
    ...(p.documentId ? [{ name: `${'  '.repeat(depth)}${p.title}${p.path ? ` (${p.path})` : ''}`, value: p.documentId }] : []),
    ...documentChoices(p.pages ?? [], depth + 1),
  ]);
}

export const PICKERS: Record<string, Picker> = {
  organizationId: {
    label: 'Organization',
    choices: async (ctx) =>
      (await listAll<Titled>(ctx.transport, 'listOrganizationsForAuthenticatedUser', {})).map((o) => ({ name: o.title ?? o.id, value: o.id })),
  },
  spaceId: { label: 'Space', choices: (ctx) => inOrganizations(ctx, 'listSpacesInOrganizationById', {}, (s) => s.title) },
  collectionId: { label: 'Collection', choices: (ctx) => inOrganizations(ctx, 'listCollectionsInOrganizationById', {}, (c) => c.title) },
  siteId: { label: 'Site', choices: (ctx) => inOrganizations(ctx, 'listSites', {}, (s) => s.title) },
  siteSpaceId: {
    label: 'Site space',
    choices: async (ctx) =>
      (await listAll<any>(ctx.transport, 'listSiteSpaces', await siteScope(ctx))).map((ss) => ({
        name: `${ss.title ?? ss.space?.title} (/${ss.path})`,
        value: ss.id,
      })),
  },
  siteSectionId: {
    label: 'Section',
    choices: async (ctx) =>
      (await listAll<any>(ctx.transport, 'listSiteSections', await siteScope(ctx))).map((s) => ({ name: `${s.title} (/${s.path})`, value: s.id })),
  },
  siteSectionGroupId: {
    label: 'Section group',
    choices: async (ctx) => (await listAll<any>(ctx.transport, 'listSiteSectionGroups', await siteScope(ctx))).map((g) => ({ name: g.title, value: g.id })),
  },
  siteRedirectId: {
    label: 'Redirect',
    choices: async (ctx) =>
      (await listAll<any>(ctx.transport, 'listSiteRedirects', await siteScope(ctx), { orderBy: 'source' })).map((r) => ({ name: r.source, value: r.id })),
  },
  fontId: {
    label: 'Font',
    choices: async (ctx) =>
      (
        await listAll<any>(ctx.transport, 'listCustomFonts', {
          organizationId: ctx.values.organizationId ?? (ctx.organization ? await ctx.organization() : need(ctx, 'organizationId', 'font')),
        })
      ).map((f) => ({ name: f.fontFamily, value: f.id })),
  },
  siteQuestionId: {
    label: 'Question',
    choices: async (ctx) =>
      (await listAll<any>(ctx.transport, 'listSiteQuestions', await siteScope(ctx), { sort: 'askedAt' })).map((q) => ({
        name: `${q.question} (${q.stats.answers} answers)`,
        value: q.id,
      })),
  },
  siteQuestionAnswerId: {
    label: 'Answer',
    choices: async (ctx) =>
      (await listAll<any>(ctx.transport, 'listSiteQuestionAnswers', await siteScope(ctx))).map((a) => ({
        name: `${a.input.raw} [${a.answered}] ${a.createdAt}`,
        value: a.id,
      })),
  },
  siteMcpServerId: {
    label: 'MCP server',
    choices: async (ctx) =>
      (await listAll<any>(ctx.transport, 'listSiteMcpServers', await siteScope(ctx))).map((m) => ({ name: `${m.name} (${m.url})`, value: m.id })),
  },
  siteChannelId: {
    label: 'Channel',
    choices: async (ctx) =>
      (await listAll<any>(ctx.transport, 'listSiteChannels', await siteScope(ctx))).map((c) => ({ name: `${c.type} (${c.role}, ${c.status})`, value: c.id })),
  },
  siteContextConnectionId: {
    label: 'Context connection',
    choices: async (ctx) =>
      (await listAll<any>(ctx.transport, 'listSiteContextConnections', await siteScope(ctx))).map((c) => ({
        name: `${c.label ?? c.setupSettings?.url ?? c.connector} (${c.connector}, ${c.status}, ${c.records} records)`,
        value: c.id,
      })),
  },
  siteContextRecordId: {
    label: 'Context record',
    choices: async (ctx) =>
      (await listAll<any>(ctx.transport, 'listSiteContextRecords', await siteScope(ctx))).map((r) => ({
        name: `${r.title} (${r.type}, ${r.connector})`,
        value: r.id,
      })),
  },
  siteFindingId: {
    label: 'Finding',
    choices: async (ctx) =>
      (await listAll<any>(ctx.transport, 'listSiteFindings', await siteScope(ctx))).map((f) => ({
        name: `${f.title} (${f.type}, ${f.severity}, ${f.status})`,
        value: f.id,
      })),
  },
  siteScanId: {
    label: 'Scan',
    choices: async (ctx) =>
      (await listAll<any>(ctx.transport, 'listSiteScans', await siteScope(ctx))).map((x) => ({
        name: `${x.createdAt} (${x.status}, ${x.findings.high} high, ${x.findings.medium} medium, ${x.findings.low} low)`,
        value: x.id,
      })),
  },
  siteTopicId: {
    label: 'Topic',
    choices: async (ctx) =>
      (await listAll<any>(ctx.transport, 'listSiteTopics', await siteScope(ctx))).map((t) => ({
        name: `${t.label} (${t.records} records, ${t.findings.open} open findings)`,
        value: t.id,
      })),
  },
  siteExternalLinkId: {
    label: 'External link',
    // No list of links in the API: the site's structure holds them (root and groups).
    choices: async (ctx) => {
      const body = (await ctx.transport.call('getSiteStructure', { path: await siteScope(ctx) })).body as any;
      const out: { name: string; value: string }[] = [];
      const walk = (items: any[]) => {
        for (const i of items ?? []) {
          if (i?.object === 'site-external-link') out.push({ name: `${i.title} (${i.url})`, value: i.id });
          if (i?.object === 'site-section-group') walk(i.children);
        }
      };
      walk(body?.structure);
      return out;
    },
  },
  shareLinkId: {
    label: 'Share link',
    choices: async (ctx) =>
      (await listAll<any>(ctx.transport, 'listSiteShareLinks', await siteScope(ctx))).map((l) => ({
        name: `${l.name}${l.active ? '' : ' (inactive)'}`,
        value: l.id,
      })),
  },
  changeRequestId: {
    label: 'Change request',
    choices: async (ctx) =>
      (await listAll<any>(ctx.transport, 'listChangeRequestsForSpace', { spaceId: need(ctx, 'spaceId', 'change request') })).map((cr) => ({
        name: `#${cr.number} ${first(cr.subject) || '(no subject)'} [${cr.status}]`,
        value: cr.id,
      })),
  },
  revisionId: {
    label: 'Revision',
    // No list of revisions in the API: the space's current one, then those its merges made.
    choices: async (ctx) => {
      const spaceId = need(ctx, 'spaceId', 'revision');
      const current = (await ctx.transport.call('getCurrentRevision', { path: { spaceId }, query: { metadata: false } })).body as { id: string };
      const merged = await listAll<any>(ctx.transport, 'listChangeRequestsForSpace', { spaceId }, { status: 'merged' });
      return [
        { name: 'Current revision', value: current.id },
        ...merged
          .filter((cr) => cr.revisionMerged && cr.revisionMerged !== current.id)
          .map((cr) => ({ name: `Merge of #${cr.number} ${first(cr.subject) || '(no subject)'}`, value: cr.revisionMerged })),
      ];
    },
  },
  pageId: {
    label: 'Page',
    choices: async (ctx) => {
      const spaceId = need(ctx, 'spaceId', 'page');
      const cr = changeRequestOf(ctx);
      const revisionId = ctx.values.revisionId;
      const body = revisionId
        ? (await ctx.transport.call('listPagesInRevisionById', { path: { spaceId, revisionId }, query: {} })).body
        : cr
          ? (await ctx.transport.call('listPagesInChangeRequest', { path: { spaceId, changeRequestId: cr }, query: {} })).body
          : (await ctx.transport.call('listPages', { path: { spaceId }, query: {} })).body;
      return pageChoices((body as { pages: any[] }).pages);
    },
  },
  reusableContentId: {
    label: 'Reusable content',
    // The blocks of the revision the command reads: the one named, the change request's, or the space's current one.
    choices: async (ctx) => {
      const spaceId = need(ctx, 'spaceId', 'reusable content');
      const cr = changeRequestOf(ctx);
      const revisionId = ctx.values.revisionId;
      const rev = revisionId
        ? await ctx.transport.call('getRevisionById', { path: { spaceId, revisionId }, query: { metadata: false } })
        : cr
          ? await ctx.transport.call('getRevisionOfChangeRequestById', { path: { spaceId, changeRequestId: cr }, query: { metadata: false } })
          : await ctx.transport.call('getCurrentRevision', { path: { spaceId }, query: { metadata: false } });
      return ((rev.body as { reusableContents?: { id: string; title: string }[] }).reusableContents ?? []).map((b) => ({ name: b.title, value: b.id }));
    },
  },
  documentId: {
    label: 'Page document',
    choices: async (ctx) => {
      const spaceId = need(ctx, 'spaceId', 'document');
      return documentChoices(((await ctx.transport.call('listPages', { path: { spaceId }, query: {} })).body as { pages: any[] }).pages);
    },
  },
  fileId: {
    label: 'File',
    choices: async (ctx) => {
      const spaceId = need(ctx, 'spaceId', 'file');
      const cr = changeRequestOf(ctx);
      const revisionId = ctx.values.revisionId;
      const files = revisionId
        ? await listAll<any>(ctx.transport, 'listFilesInRevisionById', { spaceId, revisionId })
        : cr
          ? await listAll<any>(ctx.transport, 'listFilesInChangeRequestById', { spaceId, changeRequestId: cr })
          : await listAll<any>(ctx.transport, 'listFiles', { spaceId });
      return files.map((f) => ({ name: f.name, value: f.id }));
    },
  },
  reviewId: {
    label: 'Review',
    choices: async (ctx) => {
      const spaceId = need(ctx, 'spaceId', 'review');
      const changeRequestId = need(ctx, 'changeRequestId', 'review');
      const items = await listAll<any>(ctx.transport, 'getReviewsByChangeRequestId', { spaceId, changeRequestId });
      return items.map((r) => ({ name: `${r.reviewer?.displayName ?? '?'}: ${r.status}${r.outdated ? ' (outdated)' : ''}`, value: r.id }));
    },
  },
  commentId: {
    label: 'Comment',
    choices: async (ctx) => {
      const spaceId = need(ctx, 'spaceId', 'comment');
      const cr = changeRequestOf(ctx);
      const query = { format: 'markdown' };
      const items = cr
        ? await listAll<any>(ctx.transport, 'listCommentsInChangeRequest', { spaceId, changeRequestId: cr }, query)
        : await listAll<any>(ctx.transport, 'listCommentsInSpace', { spaceId }, query);
      return items.map((c) => ({
        name: `${c.postedBy?.displayName ?? '?'}: ${first(c.body?.markdown) || '(no text)'}${c.status === 'resolved' ? ' [resolved]' : ''}`,
        value: c.id,
      }));
    },
  },
  specSlug: {
    label: 'OpenAPI spec',
    choices: (ctx) =>
      inOrganizations(
        ctx,
        'listOpenAPISpecs',
        {},
        (s) => s.slug,
        (s) => s.slug,
      ),
  },
  versionId: {
    label: 'Spec version',
    choices: async (ctx) => {
      const organizationId = ctx.values.organizationId ?? (await ctx.organization?.());
      if (!organizationId) throw new DocsError('invalid', 'spec version: give the organization (--org) first');
      const items = await listAll<any>(ctx.transport, 'listOpenAPISpecVersions', { organizationId, specSlug: need(ctx, 'specSlug', 'spec version') });
      return items.map((v) => ({ name: `${v.createdAt} (${v.id})`, value: v.id }));
    },
  },
  integrationName: {
    label: 'Integration',
    choices: async (ctx) => (await listAll<any>(ctx.transport, 'listIntegrations', {})).map((i) => ({ name: `${i.title} (${i.name})`, value: i.name })),
  },
  installationId: {
    label: 'Installation',
    choices: async (ctx) =>
      (await listAll<any>(ctx.transport, 'listIntegrationInstallations', { integrationName: need(ctx, 'integrationName', 'installation') })).map((i) => ({
        name: `${i.target?.organization ? `organization ${i.target.organization}` : i.id} [${i.status}]`,
        value: i.id,
      })),
  },
  eventId: {
    label: 'Event',
    choices: async (ctx) =>
      (await listAll<any>(ctx.transport, 'listIntegrationEvents', { integrationName: need(ctx, 'integrationName', 'event') })).map((e) => ({
        name: `${e.createdAt} ${e.payload?.type ?? ''} [${e.status}]`.trim(),
        value: e.id,
      })),
  },
  userId: {
    label: 'Member',
    choices: (ctx) =>
      inOrganizations(
        ctx,
        'listMembersInOrganizationById',
        {},
        (m) => `${m.user?.displayName ?? m.id}${m.user?.email ? ` <${m.user.email}>` : ''} (${m.role ?? 'guest'})`,
      ),
  },
  teamId: { label: 'Team', choices: (ctx) => inOrganizations(ctx, 'listTeamsInOrganizationById', {}, (t) => t.title) },
  inviteId: { label: 'Invite link', choices: (ctx) => inOrganizations(ctx, 'listOrganizationInviteLinks', {}, (l) => `${l.role ?? 'guest'} link (${l.id})`) },
  samlProviderId: {
    label: 'SAML provider',
    choices: (ctx) => inOrganizations(ctx, 'listSAMLProvidersInOrganizationById', {}, (p) => `${p.label} [${p.status}]`),
  },
  translationId: {
    label: 'Translation',
    choices: (ctx) => inOrganizations(ctx, 'listTranslations', {}, (t) => `${t.language} of ${t.source?.space ?? '?'} [${t.status}]`),
  },
  glossaryEntryId: {
    label: 'Glossary entry',
    choices: (ctx) =>
      inOrganizations(ctx, 'listGlossaryEntries', {}, (e) =>
        Object.entries(e.translations ?? {})
          .map(([k, v]) => `${k}: ${v}`)
          .join(', '),
      ),
  },
  importRunId: {
    label: 'Import run',
    choices: (ctx) =>
      inOrganizations(ctx, 'listImportRuns', {}, (r) => `${r.source?.url ?? r.source?.files?.join(', ') ?? r.id} into ${r.target?.space ?? '?'} [${r.status}]`),
  },
  // The newest 100 events of the organization's audit log (docs audit lists them all).
  auditEventId: {
    label: 'Audit event',
    choices: async (ctx) => {
      const org = ctx.values.organizationId ?? (ctx.organization ? await ctx.organization() : undefined);
      if (!org) return [];
      const r = await ctx.transport.call('listOrganizationAuditEvents', { path: { organizationId: org }, query: { limit: 100 } });
      return ((r.body as any).items as any[]).map((e) => ({ name: `${e.occurredAt} ${e.action} ${e.target.type} ${e.target.id}`, value: e.id }));
    },
  },
  conversationId: {
    label: 'Conversation',
    // Under a change request, the agent's conversations in it (docs/manual/agents.md#change-request-conversations);
    // else the organization's ingested conversations.
    choices: async (ctx) => {
      const cr = changeRequestOf(ctx);
      if (cr === undefined) return inOrganizations(ctx, 'listConversations', {}, (c) => `${first(c.subject) || c.id} (${c.createdAt})`);
      const items = await listAll<any>(ctx.transport, 'listChangeRequestConversations', { spaceId: need(ctx, 'spaceId', 'conversation'), changeRequestId: cr });
      return items.map((c) => ({ name: `${c.title} (${c.id}; ${c.updatedAt})`, value: c.id }));
    },
  },
  // The repositories a Git Sync installation may use (those under the server's Git root), named
  // as GitHub names them: the account, then the repository of that account.
  accountName: {
    label: 'Account',
    choices: async (ctx) => [...new Set((await gitRepos(ctx, 'github')).map((r) => r.accountName as string))].map((a) => ({ name: a, value: a })),
  },
  repositoryName: {
    label: 'Repository',
    choices: async (ctx) =>
      (await gitRepos(ctx, 'github'))
        .filter((r) => ctx.values.accountName === undefined || r.accountName === ctx.values.accountName)
        .map((r) => ({ name: `${r.fullName}${r.defaultBranch ? ` (${r.defaultBranch})` : ''}`, value: r.repositoryName })),
  },
  projectId: {
    label: 'Project',
    choices: async (ctx) => (await gitRepos(ctx, 'gitlab')).map((r) => ({ name: `${r.fullName} (${r.id})`, value: String(r.id) })),
  },
  // Agent tasks (0.146.0): one per issues cluster (docs/manual/agents.md#agent-tasks).
  agentTaskId: {
    label: 'Agent task',
    choices: (ctx) => inOrganizations(ctx, 'listAgentTasks', {}, (t) => `${first(t.title) || t.id} [${t.status}]`),
  },
  // The caller's own API tokens of the local store (docs tokens list), newest first as listed.
  tokenId: {
    label: 'Token',
    choices: async (ctx) =>
      ((await ctx.transport.docs('GET', TOKENS_PATH)).body as { items: any[] }).items.map((t) => ({
        name: `${t.label} (${t.id}; last used ${t.lastUsedAt ?? 'never'})`,
        value: t.id,
      })),
  },
  // The built-in templates (src/content/templates.ts): no call needed.
  templateId: {
    label: 'Template',
    choices: async () => (await import('../../src/content/templates.js')).TEMPLATES.map((t) => ({ name: `${t.title} (${t.id})`, value: t.id })),
  },
};

export const pickerFor = (name: string): Picker | undefined => (Object.hasOwn(PICKERS, name) ? PICKERS[name] : undefined);

/** The repositories of the Git Sync installation chosen before (listGitHubRepositories / listGitLabProjects). */
async function gitRepos(ctx: PickContext, provider: 'github' | 'gitlab'): Promise<any[]> {
  const installationId = need(ctx, 'installationId', provider === 'github' ? 'repository' : 'project');
  const op = provider === 'github' ? 'listGitHubRepositoriesForGitSyncInstallation' : 'listGitLabProjectsForGitSyncInstallation';
  return ((await ctx.transport.call(op, { path: { installationId } })).body as { items: any[] }).items;
}

/**
 * Git Sync installations (a command's `choose` for its `installationId`): those of every site of
 * the caller's organizations, with the spaces' installations they list. One installed on a space
 * that is on no site is given by its id.
 */
export async function chooseGitInstallation(transport: Transport): Promise<Choice[]> {
  const out: Choice[] = [];
  for (const org of await listAll<Titled>(transport, 'listOrganizationsForAuthenticatedUser', {}))
    for (const site of await listAll<Titled>(transport, 'listSites', { organizationId: org.id })) {
      const { items } = (await transport.call('listSiteGitSyncInstallations', { path: { organizationId: org.id, siteId: site.id } })).body as { items: any[] };
      for (const i of items)
        if (!out.some((c) => c.value === i.id))
          out.push({
            name: `${i.provider} on ${i.target.type} ${i.target.type === 'site' ? i.target.siteId : i.target.spaceId}${i.repositoryConnection ? ` ↔ ${i.repositoryConnection.repositoryName}` : ''} [${i.status}]`,
            value: i.id,
          });
    }
  return out;
}

/** Asks for `name` with its picker: the choices, then a select prompt labelled in words. */
export async function pick(name: string, ctx: PickContext): Promise<string> {
  const picker = pickerFor(name);
  if (!picker) throw new DocsError('bug', `no picker for ${name}`);
  return select(picker.label, await picker.choices(ctx));
}

/** A select prompt over choices (none: exit 3, there is nothing to act on). */
export async function select(label: string, choices: Choice[]): Promise<string> {
  if (!choices.length) throw new DocsError('not_found', `${label.toLowerCase()}: nothing to choose from`);
  const { select } = await import('@inquirer/prompts');
  return select({ message: `${label}:`, choices, pageSize: 15 });
}

// Kept for commands that name their picker (spaces, collections).
/** The caller's conversations with the organization agent (agents conversations rename/delete: their `conversationId`). */
export const chooseAgentConversation = (transport: Transport) =>
  inOrganizations(
    { transport, values: {}, flags: {} },
    'listOrganizationAgentConversations',
    {},
    (c) => `${c.title ?? '(untitled)'} (${c.id}; ${c.updatedAt})`,
  );
export const chooseSpace = (transport: Transport) => PICKERS.spaceId!.choices({ transport, values: {}, flags: {} });
export const chooseCollection = (transport: Transport) => PICKERS.collectionId!.choices({ transport, values: {}, flags: {} });
