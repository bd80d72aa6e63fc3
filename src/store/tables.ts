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
  { name: 'organizations', shard: (r) => `org/${r.id}`, indexes: [] },
  { name: 'members', shard: (r) => `org/${r.organization}`, indexes: ['organization', 'user'] },
  // OpenAPI specs: the spec row with its organization; source text and versions in the spec's
  // own shard (the parsed documents of versions are files beside the store, see src/openapi).
  { name: 'openapiSpecs', shard: (r) => `org/${r.organization}`, indexes: ['organization', 'key', 'processingState'] },
  { name: 'openapiSources', shard: (r) => `openapi/${r.spec}`, indexes: [] },
  { name: 'openapiVersions', shard: (r) => `openapi/${r.spec}`, indexes: ['spec'] },
];
