import { fontBlobs, openapiVersionBlobs, revisionBlobs, uploadBlobs } from './blob-refs.js';
import type { Row, TableSpec } from './port.js';
import { summariesTable } from './summaries.js';

// Every table, with the shard its rows live in and how a row is found without reading every
// shard. A shard is one lowdb document (or one PostgreSQL row); an operation loads the shards it
// touches and nothing else, so its cost follows what it touches, not the size of the store.
//   root                 users, tokens, store metadata (small, per installation)
//   org/<id>             an organization and its organization-level records
//   space/<id>           one space: its row, change requests, comments, reviews
//   space/<id>/rev       its revisions (small rows: a revision names its root node, see src/content)
//   space/<id>/c         its page bodies: immutable rows in append-only segments
//                        (`space/<id>/c/<n>`), so an edit writes what it adds, never what exists
//   space/<id>/n         its page nodes (the tree), the same way: reading a tree reads no body
//   space/<id>/digest    the push digest of its current tree, kept for unchanged pushes (src/push-digest.ts)
//   openapi/<spec>, integration/<id>, conversations/<org>, ask/<org>
//   insights/<site>      a site's insights events: immutable batches in append-only segments
//   insightrollups/<site>/<id>  what those batches count, one rollup a shard
//   sum/spaces/<org>/<b>  the organization's space rows, in 64 buckets, and sum/spaces/<org>/head
//                        (the highest position per parent): written with each space row (src/store/summaries.ts)
// Finding rows: `locateId` / `locate[field]` when the id or the value says where the rows are;
// every other id and indexed field has a directory the store keeps by itself (dir/<table>.<field>/<b>).

const org = (v: string) => `org/${v}`;
const root = () => 'root';
const inRoot = (name: string, indexes: string[] = []): TableSpec => ({
  name,
  shard: root,
  indexes,
  home: 'root',
  locateId: root,
  locate: Object.fromEntries(indexes.map((f) => [f, root])),
});
/** A row kept in its organization's shard, found by id through the directory. */
const inOrg = (name: string, indexes: string[], extra: Partial<TableSpec> = {}): TableSpec => ({
  name,
  shard: (r) => org(r.organization),
  indexes,
  locate: indexes.includes('organization') ? { organization: org } : {},
  ...extra,
});
/** A row kept with its space (space/<id>), found by id through the directory. */
const inSpace = (name: string, indexes: string[]): TableSpec => ({
  name,
  shard: (r) => `space/${r.space}`,
  indexes: ['space', ...indexes],
  locate: { space: (v) => `space/${v}` },
});
/** A row of a site's context shard (`context/<site>`): ids are `<site>:<...>`. */
const inContext = (name: string, indexes: string[]): TableSpec => ({
  name,
  shard: (r) => `context/${r.site}`,
  indexes,
  locateId: (id) => `context/${id.slice(0, Math.max(0, id.indexOf(':')))}`,
  locate: indexes.includes('site') ? { site: (v) => `context/${v}` } : {},
});
/** Immutable content rows of a space, in the segments of its group `space/<id>/<group>`. */
const content = (name: string, group = 'c', extra: Partial<TableSpec> = {}): TableSpec => ({
  ...extra,
  name,
  shard: (r) => `space/${r.space}/${group}`,
  indexes: ['space'],
  immutable: true,
  // Ids are `<space>:<hash>` (src/content/model.ts).
  locateId: (id) => `space/${id.slice(0, id.indexOf(':'))}/${group}`,
  locate: { space: (v) => `space/${v}/${group}` },
});

/** What the summary of spaces keeps of each space, in this order (src/tree/order.ts spaceEntry reads them). */
export const SPACE_SUMMARY_FIELDS = ['parent', 'position', 'createdAt', 'defaultLevel', 'revision', 'deletedAt', 'type'];

export const TABLES: TableSpec[] = [
  inRoot('meta'),
  inRoot('users', ['email']),
  inRoot('tokens', ['user']),
  // Pending invitations of existing users (src/invites/pending.ts): found by their user.
  inRoot('invitations', ['user', 'organization']),
  // Leases of background jobs (src/kernel/leases.ts): few and short-lived, in one shard of their own.
  { name: 'leases', shard: () => 'jobs', indexes: [], home: 'jobs', locateId: () => 'jobs' },
  // Sites in the ads program (src/sites/ads.ts): few, listed by status across organizations.
  { name: 'siteAds', shard: () => 'ads', indexes: ['status'], home: 'ads', locateId: () => 'ads' },
  // `enumerable`: listed whole by checks and tests (a directory entry per organization or member).
  { name: 'organizations', shard: (r) => org(r.id), indexes: ['hostname'], locateId: org, enumerable: true },
  // Member ids are `<organization>.<user>` (src/organizations/model.ts).
  inOrg('members', ['organization', 'user'], { locateId: (id) => org(id.slice(0, id.indexOf('.'))), enumerable: true }),
  inOrg('collections', ['organization', 'parent']),
  // A space's row is in its own shard: renaming one space rewrites a file of one space, however
  // many the organization has. `enumerable`: the retention sweep lists every space. No
  // `organization` index: its directory entry (every space id of the organization) was rewritten
  // by each create; the summary lists them (older stores keep the file, unread, see doctor.ts).
  // `summary`: listed by organization from sum/spaces/<org>/<b> (src/store/summaries.ts), and the
  // highest position per parent kept there, so neither a listing nor a create reads every space.
  {
    name: 'spaces',
    shard: (r) => `space/${r.id}`,
    indexes: ['parent'],
    locateId: (id) => `space/${id}`,
    enumerable: true,
    summary: {
      group: (r) => r.organization,
      // What the tree order, access levels, the styleguide filter and the search indexer need
      // (src/tree/order.ts SpaceEntry): a third of the row's bytes.
      fields: SPACE_SUMMARY_FIELDS,
      last: { key: (r) => r.parent ?? '', value: (r) => r.position },
      groups: (tx) => tx.all<Row>('organizations').map((o) => o.id),
    },
  },
  summariesTable,
  // `changeRequest`: the change request a revision was authored in (contributors, src/change-requests/filters.ts).
  {
    name: 'revisions',
    shard: (r) => `space/${r.space}/rev`,
    indexes: ['space', 'changeRequest'],
    locate: { space: (v) => `space/${v}/rev` },
    blobs: revisionBlobs, // uploaded files: files/<sha>
  },
  // Organizations area: teams, invite links, SAML providers, agent instructions (id = organization).
  inOrg('teams', ['organization']),
  inOrg('teamMembers', ['team', 'user']),
  // Permissions given on a space, collection or site to a user or a team (src/tree/grants.ts).
  inOrg('grants', ['organization', 'target']),
  inOrg('inviteLinks', ['organization']),
  inOrg('samlProviders', ['organization']),
  inOrg('agentInstructions', [], { locateId: org }),
  // Conversations with the organization agent (src/agents): found by their user and client id.
  inOrg('agentConversations', ['organization', 'key', 'user']),
  // OpenAPI specs: the spec row with its organization; source text (id = spec) and versions in the
  // spec's own shard (the parsed documents of versions are files beside the store, see src/openapi).
  inOrg('openapiSpecs', ['organization', 'key', 'processingState']),
  // Signed upload URLs (generateStorageUploadURL) and the file each received: files/<sha> once uploaded.
  inOrg('storageUploads', ['organization'], { blobs: uploadBlobs }),
  { name: 'openapiSources', shard: (r) => `openapi/${r.spec}`, indexes: [], locateId: (id) => `openapi/${id}` },
  { name: 'openapiVersions', shard: (r) => `openapi/${r.spec}`, indexes: ['spec'], locate: { spec: (v) => `openapi/${v}` }, blobs: openapiVersionBlobs },
  // Integrations: global by `name` (unique), kept in the owner's shard; installations in the
  // shard of the organization they are installed in; events in the integration's own shard.
  inOrg('integrations', ['name', 'organization']),
  inOrg('integrationInstallations', ['integration', 'organization']),
  {
    name: 'integrationEvents',
    shard: (r) => `integration/${r.integration}`,
    indexes: ['integration', 'delivery'],
    locate: { integration: (v) => `integration/${v}` },
  },
  // Conversations, their issues and clusters: in the organization's own conversations shard, so a
  // busy inbox does not slow the organization's other writes.
  ...(['conversations', 'conversationIssues', 'conversationClusters', 'agentTasks'] as const).map(
    (name): TableSpec => ({
      name,
      shard: (r) => `conversations/${r.organization}`,
      indexes: {
        conversations: ['organization', 'key', 'state'],
        conversationIssues: ['organization', 'conversation', 'cluster'],
        conversationClusters: ['organization'],
        // What people decided about agent tasks (src/agents), beside the clusters they follow.
        agentTasks: ['organization'],
      }[name],
      locate: { organization: (v) => `conversations/${v}` },
    }),
  ),
  // Questions asked of the documentation and AI responses (src/ask): the organization's own ask
  // shard, so questions asked on a busy site do not slow its other writes. Ids start with the organization.
  // AI usage counts (src/organizations/ai-usage.ts) are written with the questions, in the same shard.
  ...(['askQuestions', 'askResponses', 'aiUsage'] as const).map(
    (name): TableSpec => ({
      name,
      shard: (r) => `ask/${r.organization}`,
      indexes: ['organization'],
      locate: { organization: (v) => `ask/${v}` },
      locateId: (id) => `ask/${id.slice(0, Math.max(0, id.indexOf('.')))}`,
    }),
  ),
  // Style guide check runs (src/styleguides): with their organization.
  inOrg('styleguideRuns', ['organization', 'site']),
  // Translations: small settings rows with their organization; the results are spaces.
  inOrg('translations', ['organization', 'queue']),
  // The organization's translation glossary (src/translations/glossary.ts).
  inOrg('glossaryEntries', ['organization']),
  inOrg('importRuns', ['organization', 'queue']),
  inSpace('gitSync', []),
  inOrg('gitSyncInstallations', ['organization', 'key', 'site', 'parent']),
  // Docs sites: the site and its structure (sections, groups, site spaces) and share links.
  inOrg('sites', ['organization', 'proxy']),
  inOrg('siteSections', ['site']),
  inOrg('siteSectionGroups', ['site']),
  inOrg('siteSpaces', ['site', 'space']),
  inOrg('siteShareLinks', ['site', 'key']),
  inOrg('siteRedirects', ['site']),
  // Custom fonts name their faces' bytes (docs/manual/site-delivery.md#custom-fonts), as the upload they came through does.
  inOrg('customFonts', ['organization'], { blobs: fontBlobs }),
  // Custom hostnames: the row's id is the name, found by the directory on a request for an unknown Host.
  inOrg('customHostnames', ['organization', 'site']),
  inOrg('siteMcpServers', ['site']),
  // A site's agent channels, external links and agent settings (docs/manual/site-agents.md).
  inOrg('siteChannels', ['site']),
  inOrg('siteExternalLinks', ['site']),
  inOrg('siteAgentSettings', ['site']),
  // Site context (src/site-context): a site's connections with its organization; the records they
  // bring in (ticket and document bodies, many) in the site's own context shard, so ingesting a
  // support inbox never rewrites the organization's shard. Record ids are `<site>:<uuid>`.
  inOrg('contextConnections', ['organization', 'site']),
  {
    name: 'contextRecords',
    shard: (r) => `context/${r.site}`,
    indexes: ['site', 'connection', 'key'],
    locateId: (id) => `context/${id.slice(0, Math.max(0, id.indexOf(':')))}`,
    locate: { site: (v) => `context/${v}` },
  },
  // A site's scans, findings, topics and what its scans remember (docs/manual/site-findings.md), in
  // the same context shard: a scan reads the site's records and writes these in one shard.
  inContext('siteScans', ['site']),
  inContext('siteFindings', ['site']),
  inContext('siteTopics', ['site']),
  inContext('siteScanStates', []),
  // A site's insights events (src/sites/insights.ts): batches written once, in append-only
  // segments of the site's own (`insights/<site>/<n>`), so recording events never rewrites the
  // organization's shard and an aggregation loads only that site's events. Ids are `<site>:...`.
  {
    name: 'siteInsightBatches',
    shard: (r) => `insights/${r.site}`,
    indexes: ['site'],
    immutable: true,
    locateId: (id) => `insights/${id.slice(0, id.indexOf(':'))}`,
    locate: { site: (v) => `insights/${v}` },
  },
  // What a site's insights batches count (src/sites/insight-rollups.ts), written in the same
  // commit as each batch: one shard per rollup (`insightrollups/<site>/<id>`), so a sealed rollup
  // is written once and the open one, rewritten by each batch, stays small. Ids are `<site>:...`;
  // the site's rollups are found through the directory.
  {
    name: 'siteInsightRollups',
    shard: (r) => `insightrollups/${r.site}/${r.id.slice(r.id.indexOf(':') + 1)}`,
    indexes: ['site'],
    locateId: (id) => `insightrollups/${id.slice(0, Math.max(0, id.indexOf(':')))}/${id.slice(id.indexOf(':') + 1)}`,
  },
  // An organization's audit events (src/audit): written once, in the same commit as the write they
  // record, as append-only segments of the organization's own group (`audit/<org>/<n>`). Ids are `<org>:<uuid>`.
  {
    name: 'auditEvents',
    shard: (r) => `audit/${r.organization}`,
    indexes: ['organization'],
    immutable: true,
    locateId: (id) => `audit/${id.slice(0, Math.max(0, id.indexOf(':')))}`,
    locate: { organization: (v) => `audit/${v}` },
    // Written at every ring move, read whole only when listed or pruned: segments merged by eights,
    // so an event is rewritten about 3 times in a log of 5,000 rather than 8 (docs/manual/performance.md#the-audit-log).
    segmentFanOut: 8,
    // Ids are `<org>:<uuid>` made by the recording write: a ring move's commit looks none up, so it
    // reads and checks the group's index and the segments it merges, not the whole log.
    freshIds: true,
  },
  // The newest audit events of a place, kept in the shard their own write committed (`host`: a
  // space's, an organization's...), so recording one adds no file to the commit; moved to the
  // segments above in batches. Ids are `<host>|<uuid>`. The organization lists its hosts.
  {
    name: 'auditRecent',
    shard: (r) => r.host,
    indexes: ['host'],
    locateId: (id) => id.slice(0, Math.max(0, id.lastIndexOf('|'))),
    locate: { host: (v) => v },
  },
  inOrg('auditHosts', ['organization'], { locateId: (id) => org(id.slice(0, Math.max(0, id.indexOf('|')))) }),
  // The audit events of a store whose backend keeps logs (PostgreSQL): each event a row of its own,
  // appended in its write's commit (`log/audit/<org>`), so the write's shard carries no ring and
  // no segment is rewritten (docs/manual/audit.md). Ids are `<org>:<uuid>`, as in auditEvents.
  {
    name: 'auditLog',
    shard: (r) => `log/audit/${r.organization}`,
    indexes: ['organization'],
    log: true,
    locateId: (id) => `log/audit/${id.slice(0, Math.max(0, id.indexOf(':')))}`,
    locate: { organization: (v) => `log/audit/${v}` },
  },
  // Space content: page bodies and page nodes by hash, shared between revisions (src/content/model.ts).
  // The nodes have a group of their own (`n`): a page tree (a push's comparison, a published
  // page's navigation) loads the nodes and not every body. `pageNodes` is where stores written
  // before kept them, among the bodies: read when a node is not in `pageTreeNodes` (src/content/nodes.ts).
  content('pageContents'),
  // Read whole (readWhole): a tree is walked from its root, node after node.
  content('pageTreeNodes', 'n', { readWhole: true }),
  content('pageNodes'),
  // The push digest of a space's current page tree (src/push-digest.ts): derived from its nodes,
  // one row per space (id: the space), replaced when the tree it names is no longer current.
  {
    name: 'pushDigests',
    shard: (r) => `space/${r.space}/digest`,
    indexes: ['space'],
    locateId: (id) => `space/${id}/digest`,
    locate: { space: (v) => `space/${v}/digest` },
  },
  // The pages changed since that digest, when a merge changed only pages' own fields (a one-line
  // change): a shard of its own, so that keeping it does not write the digest's again.
  {
    name: 'pushDigestPatches',
    shard: (r) => `space/${r.space}/digest-patch`,
    indexes: ['space'],
    locateId: (id) => `space/${id}/digest-patch`,
    locate: { space: (v) => `space/${v}/digest-patch` },
  },
  // What a published page's navigation needs of a node with subpages (src/content/nav.ts), by the
  // node's hash, in a group of their own (`v`) read by segment filter: a page's first render after
  // a restart reads the rows of its ancestors, not the space's tree.
  content('pageNavs', 'v', { partialRuns: 8 }),
  inSpace('changeRequests', []),
  // Comments and their replies (src/comments); `changeRequest` for the per-change-request lists.
  inSpace('comments', ['changeRequest']),
  inSpace('commentReplies', ['comment']),
  // Change-request reviews and review requests, with the change request they are about.
  inSpace('changeRequestReviews', ['changeRequest']),
  inSpace('changeRequestReviewers', ['changeRequest', 'user']),
  // The agent's conversations in a change request (src/agents/cr-conversations.ts).
  inSpace('changeRequestConversations', ['changeRequest']),
];
