import { bucketOf } from './buckets.js';
import type { TableSpec } from './port.js';

// Every table, with the shard its rows live in. Shards keep the cost of one write independent
// of the total data: a change rewrites only the files of the shards it touches.
//   root         users, tokens, store metadata (small, per installation)
//   org/<id>     an organization and its organization-level records
//   space/<id>   one space's content (revisions, pages, files, change requests, comments)
export const TABLES: TableSpec[] = [
  { name: 'meta', shard: () => 'root', indexes: [] },
  { name: 'users', shard: () => 'root', indexes: ['email'] },
  { name: 'tokens', shard: () => 'root', indexes: ['user'] },
  { name: 'organizations', shard: (r) => `org/${r.id}`, indexes: ['hostname'] },
  { name: 'members', shard: (r) => `org/${r.organization}`, indexes: ['organization', 'user'] },
  // Collections and spaces (metadata): in the organization's shard, so a transfer moves them.
  { name: 'collections', shard: (r) => `org/${r.organization}`, indexes: ['organization', 'parent'] },
  { name: 'spaces', shard: (r) => `org/${r.organization}`, indexes: ['organization', 'parent'] },
  // Space content. Every table in a `space/<id>` shard names its space in `space` and indexes
  // it: duplicate and purge find a space's rows that way (src/spaces/content-rows.ts).
  // `changeRequest`: the change request a revision was authored in (contributors, src/change-requests/filters.ts).
  { name: 'revisions', shard: (r) => `space/${r.space}`, indexes: ['space', 'changeRequest'] },
  // Organizations area: teams, invite links, SAML providers, agent instructions.
  { name: 'teams', shard: (r) => `org/${r.organization}`, indexes: ['organization'] },
  { name: 'teamMembers', shard: (r) => `org/${r.organization}`, indexes: ['team', 'user'] },
  { name: 'inviteLinks', shard: (r) => `org/${r.organization}`, indexes: ['organization'] },
  { name: 'samlProviders', shard: (r) => `org/${r.organization}`, indexes: ['organization'] },
  { name: 'agentInstructions', shard: (r) => `org/${r.organization}`, indexes: [] },
  // OpenAPI specs: the spec row with its organization; source text and versions in the spec's
  // own shard (the parsed documents of versions are files beside the store, see src/openapi).
  { name: 'openapiSpecs', shard: (r) => `org/${r.organization}`, indexes: ['organization', 'key', 'processingState'] },
  { name: 'openapiSources', shard: (r) => `openapi/${r.spec}`, indexes: [] },
  { name: 'openapiVersions', shard: (r) => `openapi/${r.spec}`, indexes: ['spec'] },
  // Integrations: global by `name` (unique), kept in the owner's shard; installations in the
  // shard of the organization they are installed in; events in the integration's own shard.
  { name: 'integrations', shard: (r) => `org/${r.organization}`, indexes: ['name', 'organization'] },
  { name: 'integrationInstallations', shard: (r) => `org/${r.organization}`, indexes: ['integration', 'organization'] },
  { name: 'integrationEvents', shard: (r) => `integration/${r.integration}`, indexes: ['integration', 'delivery'] },
  // Conversations, their issues and clusters: in the organization's own conversations shard
  // (`conversations/<id>`), so a busy inbox does not slow the organization's other writes.
  { name: 'conversations', shard: (r) => `conversations/${r.organization}`, indexes: ['organization', 'key', 'state'] },
  { name: 'conversationIssues', shard: (r) => `conversations/${r.organization}`, indexes: ['organization', 'conversation', 'cluster'] },
  { name: 'conversationClusters', shard: (r) => `conversations/${r.organization}`, indexes: ['organization'] },
  // Translations: small settings rows with their organization; the results are spaces.
  { name: 'translations', shard: (r) => `org/${r.organization}`, indexes: ['organization', 'queue'] },
  // Docs sites: the site and its structure (sections, groups, site spaces) and share links, all in
  // the organization's shard with the spaces they point at (src/sites).
  { name: 'sites', shard: (r) => `org/${r.organization}`, indexes: ['organization'] },
  { name: 'siteSections', shard: (r) => `org/${r.organization}`, indexes: ['site'] },
  { name: 'siteSectionGroups', shard: (r) => `org/${r.organization}`, indexes: ['site'] },
  { name: 'siteSpaces', shard: (r) => `org/${r.organization}`, indexes: ['site', 'space'] },
  { name: 'siteShareLinks', shard: (r) => `org/${r.organization}`, indexes: ['site', 'key'] },
  // Space content: page bodies and page nodes by hash (shared between revisions, see
  // src/content/model.ts), change requests. Bodies and nodes are most of a big space's bytes:
  // they live in 16 buckets under the space's shard (`space/<id>/<n>`, by row id), so an edit
  // or a merge rewrites the buckets it touches, not every page of the space (src/store/buckets.ts).
  { name: 'pageContents', shard: (r) => `space/${r.space}/${bucketOf(r.id, 16)}`, indexes: ['space'] },
  { name: 'pageNodes', shard: (r) => `space/${r.space}/${bucketOf(r.id, 16)}`, indexes: ['space'] },
  { name: 'changeRequests', shard: (r) => `space/${r.space}`, indexes: ['space'] },
  // Comments and their replies (src/comments): with the space's content; `changeRequest` indexed
  // for the per-change-request lists and counts, `comment` for a comment's replies.
  { name: 'comments', shard: (r) => `space/${r.space}`, indexes: ['space', 'changeRequest'] },
  { name: 'commentReplies', shard: (r) => `space/${r.space}`, indexes: ['space', 'comment'] },
  // Change-request reviews and review requests, with the change request they are about.
  { name: 'changeRequestReviews', shard: (r) => `space/${r.space}`, indexes: ['space', 'changeRequest'] },
  { name: 'changeRequestReviewers', shard: (r) => `space/${r.space}`, indexes: ['space', 'changeRequest', 'user'] },
];
