// Precomputes the contract at build time so that neither the CLI nor the server parses the
// 1.2 MB spec at start-up: one small JSON file per operation (its method, path, parameters,
// request and response schemas, with only the component schemas it reaches) plus a route index.
// Sources: @gitbook/api 0.146.0 (the reference) and, for the operations it lacks, the latest.
import { readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractTypes } from './contract-types.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'generated', 'contract');
const load = (pkg) => JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'spec', 'openapi.json'), 'utf8'));
const pinned = { spec: load('gitbook-api-0146'), source: '@gitbook/api@0.146.0' };
const latest = {
  spec: load('gitbook-api-latest'),
  source: '@gitbook/api@' + JSON.parse(readFileSync(join(root, 'node_modules/gitbook-api-latest/package.json'), 'utf8')).version,
};
// Both specs' PlainObject (visitor claims, integration configurations) has no `type`, so a string
// value matches both its PlainObject branch and its string branch and every `oneOf` refuses it
// (`{plan: "pro"}` could never be sent): read as the object it describes. docs/manual/contract.md.
for (const { spec } of [pinned, latest])
  if (spec.components.schemas.PlainObject && !spec.components.schemas.PlainObject.type) spec.components.schemas.PlainObject.type = 'object';
// Operations taken from the latest spec because 0.146.0 lacks them (docs/manual/contract.md).
// The site permission operations (inviteToSite, list/update of user and team permissions in a
// site) exist only in the latest spec (docs/manual/permissions.md).
const FROM_LATEST = [
  'createOrganization',
  'updateChangeRequestContent',
  'inviteToSite',
  'listUserPermissionsInSite',
  'updateUserPermissionInSite',
  'listTeamPermissionsInSite',
  'updateTeamPermissionInSite',
  'removeUserFromSite',
  'removeTeamFromSite',
  'listImportRuns',
  'getImportRun',
  'bulkUpsertSiteRedirects',
  // Git Sync installations (docs/manual/imports-and-git.md#git-sync-installations).
  'installGitSyncProviderOnTarget',
  'getGitSyncInstallationById',
  'updateGitSyncInstallationById',
  'uninstallGitSyncInstallation',
  'listGitHubRepositoriesForGitSyncInstallation',
  'listGitHubRepoBranchesForGitSyncInstallation',
  'getGitHubRepoFileForGitSyncInstallation',
  'listGitLabProjectsForGitSyncInstallation',
  'listGitLabProjectBranchesForGitSyncInstallation',
  'getGitLabProjectFileForGitSyncInstallation',
  'listSiteGitSyncInstallations',
  'prewarmSiteSearch',
  // Conversations with the organization agent are 0.202.0's (docs/manual/agents.md).
  'listOrganizationAgentConversations',
  'provisionOrganizationAgentConversation',
  'updateOrganizationAgentConversation',
  'deleteOrganizationAgentConversation',
  // The agent's conversations in a change request (docs/manual/agents.md#change-request-conversations).
  'listChangeRequestConversations',
  'updateChangeRequestConversation',
  'deleteChangeRequestConversation',
  // A site's agent channels, external links, agent settings and feedback, duplicating a site
  // space, the site template (docs/manual/site-agents.md).
  'createSiteChannel',
  'listSiteChannels',
  'getSiteChannelById',
  'updateSiteChannelById',
  'deleteSiteChannelById',
  'addExternalLinkToSite',
  'updateSiteExternalLinkById',
  'deleteSiteExternalLinkById',
  'duplicateSiteSpace',
  'applyTemplateToSite',
  'getSiteAgentSettingsById',
  'updateSiteAgentSettingsById',
  'submitSiteAgentFeedback',
  'submitAgentFeedbackToSite',
  // The organization's audit log (docs/manual/audit.md).
  'listOrganizationAuditEvents',
  'getOrganizationAuditEvent',
  'listOrganizationAuditEventActions',
  // Site questions and answers (docs/manual/ask.md#site-questions-and-answers); styleguides (docs/manual/styleguides.md).
  'listSiteQuestions',
  'getSiteQuestionById',
  'listSiteQuestionSources',
  'getSiteQuestionStats',
  'listSiteQuestionAnswers',
  'getSiteQuestionAnswerById',
  'getSiteQuestionAnswerThreadById',
  'listSiteQuestionAnswerSources',
  'createSiteStyleguideById',
  'createSiteStyleguideRun',
  'listSiteStyleguideRuns',
  'listStyleguideTemplates',
  'listOrganizationStyleguides',
  // A site's scans, findings (content gaps, broken links, outdated pages) and topics, and the
  // change requests that fix a finding (docs/manual/site-findings.md).
  'listSiteScans',
  'getSiteScanById',
  'listSiteFindings',
  'getSiteFindingById',
  'updateSiteFindingById',
  'listChangeRequestsForSiteFinding',
  'triggerChangeRequestsForSiteFinding',
  'listPagesForSiteFinding',
  'listQuestionsForSiteFinding',
  'listRecordsForSiteFinding',
  'getSiteFindingStats',
  'listSiteTopics',
  'getSiteTopicById',
  'updateSiteTopicById',
  'deleteSiteTopicFindings',
  // Small operations of 0.202.0 (docs/manual/openapi.md#the-raw-source, docs/manual/organizations.md#ai-usage,
  // docs/manual/content.md#meta-links, docs/manual/access.md#notifications-tokens).
  'getLatestOpenAPISpecVersionContentRaw',
  'createUserNotificationsToken',
  'getOrganizationAIUsage',
  'listSpacePageMetaLinks',
  'listRevisionPageMetaLinks',
  'listChangeRequestPageMetaLinks',
  // A site's context connections and records (docs/manual/site-context.md#connections-and-records).
  'listSiteContextConnections',
  'createSiteContextConnection',
  'getSiteContextConnectionById',
  'updateSiteContextConnectionById',
  'deleteSiteContextConnectionById',
  'syncSiteContextConnection',
  'testSiteContextConnection',
  'listSiteContextRecords',
  'upsertSiteContextRecords',
  'getSiteContextRecordById',
];
// Operations both specs have whose 0.202.0 request is a superset of 0.146.0's (new fields, more
// destination kinds, a wider source pattern): routes and responses from 0.146.0, the request (path,
// query and body) from 0.202.0, so a client of either is understood. docs/manual/sites.md#redirects.
// listGlossaryEntries: 0.202.0 adds `orderBy` (a language: entries by their term in it). docs/manual/translations.md#glossary.
// listOrganizationIntegrationsStatus: the `site` and `space` filters (docs/manual/integrations.md#what-is-installed-where);
// generateStorageUploadURL: the `organization_file` kind (docs/manual/imports-and-git.md#upload-urls).
// searchSiteContent: the scope's `restrictTo`; getSitePublishingPreviewById: `draft` and `target`;
// resolvePublishedContentByUrl: the visitor's `type` (docs/manual/sites.md#published-urls).
const LATEST_REQUEST = [
  'searchSiteContent',
  'getSitePublishingPreviewById',
  'resolvePublishedContentByUrl',
  'createSiteRedirect',
  'updateSiteRedirectById',
  'listSiteRedirects',
  'getSiteRedirectBySource',
  'listGlossaryEntries',
  'listOrganizationIntegrationsStatus',
  'generateStorageUploadURL',
  // getComputedDocument: 0.202.0 adds the `operation` and `tag` documents of builtin:openapi and names
  // the translation of a builtin:translation document (which 0.146.0 cannot say); getComputedRevision:
  // `grouping` and `downloadLink` (docs/manual/content.md#computed-content).
  'getComputedDocument',
  'getComputedRevision',
];
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
// Bodies that 0.202.0 clients send with fields 0.146.0 lacks and that this server stores
// (socialAccounts, styling.codeTheme, pageActions.items), while 0.146.0 clients still send theirs:
// their request schema is both specs' merged (mergedInput below), each field checked by the spec
// that has it, required only where both require it (0.202.0 no longer requires pdf and git; the
// server fills what a client left out). docs/manual/contract.md.
const BOTH_INPUTS = ['updateSiteCustomizationById', 'overrideSiteSpaceCustomizationById'];

function deref(spec, node) {
  while (node?.$ref) {
    const parts = node.$ref.replace(/^#\//, '').split('/');
    node = parts.reduce((o, k) => o[k], spec);
  }
  return node;
}

// OpenAPI 3.0 `nullable` is not JSON Schema: turn it into a type union (and null in enums)
// so one standard validator (ajv) reads both spec versions the same way.
function normalize(schema) {
  if (Array.isArray(schema)) return schema.map(normalize);
  if (!schema || typeof schema !== 'object') return schema;
  const outSchema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'nullable' || k === 'example' || k === 'examples' || k === 'discriminator' || k.startsWith('x-')) continue;
    outSchema[k] =
      k === 'properties' || k === 'patternProperties' || k === '$defs' || k === 'definitions'
        ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, normalize(s)]))
        : normalize(v);
  }
  if (schema.nullable === true) {
    if (outSchema.type) outSchema.type = [].concat(outSchema.type, 'null');
    if (outSchema.enum && !outSchema.enum.includes(null)) outSchema.enum = [...outSchema.enum, null];
    if (!outSchema.type && !outSchema.enum) return { anyOf: [outSchema, { type: 'null' }] };
  }
  return outSchema;
}

function closure(spec, schema) {
  const seen = {};
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    if (typeof node.$ref === 'string') {
      const name = node.$ref.split('/').pop();
      if (!seen[name]) {
        seen[name] = true;
        const target = spec.components.schemas[name];
        seen[name] = normalize(target);
        visit(target);
      }
    }
    for (const v of Object.values(node)) visit(v);
  };
  visit(schema);
  return seen;
}

function build({ spec, source }, path, method, op, shared) {
  const params = [...(shared || []), ...(op.parameters || [])].map((p) => deref(spec, p));
  const parameters = params.map((p) => ({ name: p.name, in: p.in, required: !!p.required, schema: normalize(p.schema || {}) }));
  let requestBody;
  if (op.requestBody) {
    const rb = deref(spec, op.requestBody);
    const [contentType, media] = Object.entries(rb.content || {})[0] || [];
    requestBody = { required: !!rb.required, contentType, schema: normalize(media?.schema || {}) };
  }
  const responses = {};
  for (const [status, r0] of Object.entries(op.responses || {})) {
    const r = deref(spec, r0);
    const [contentType, media] = Object.entries(r.content || {})[0] || [];
    responses[status] = { contentType: contentType || null, schema: media?.schema ? normalize(media.schema) : null, headers: Object.keys(r.headers || {}) };
  }
  const all = { parameters, requestBody, responses };
  return {
    operationId: op.operationId,
    method: method.toUpperCase(),
    path,
    source,
    dialect: spec.openapi.startsWith('3.1') ? '2020-12' : 'draft-07',
    deprecated: !!op.deprecated,
    summary: op.summary || '',
    ...all,
    components: { schemas: closure(spec, all) },
  };
}

/** `node` with every `#/components/schemas/X` reference turned into `#/components/schemas/LatestX`. */
function prefixed(node) {
  if (Array.isArray(node)) return node.map(prefixed);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', '#/components/schemas/Latest') : prefixed(v),
    ]),
  );
}

/** An object schema's own properties and required list, through $refs and allOf. */
function objectOf(spec, schema, depth = 0) {
  const s0 = deref(spec, schema);
  if (!s0 || typeof s0 !== 'object' || depth > 10) return undefined;
  if (s0.allOf) {
    const parts = s0.allOf.map((p) => objectOf(spec, p, depth + 1));
    if (parts.some((p) => !p)) return undefined;
    return {
      properties: Object.assign({}, s0.properties, ...parts.map((p) => p.properties)),
      required: [...(s0.required ?? []), ...parts.flatMap((p) => p.required)],
    };
  }
  if (!s0.properties || s0.oneOf || s0.anyOf) return undefined;
  return { properties: s0.properties, required: s0.required ?? [], description: s0.description };
}

/**
 * The two specs' request schemas as one: properties of both (a field both have and both describe
 * as an object with properties is merged the same way; otherwise 0.146.0's schema checks it), a
 * field only 0.202.0 has checked by 0.202.0's schema (its components renamed `Latest...`), and
 * required only what both require. `uses` collects the 0.202.0 schemas reached.
 */
function mergedInput(pSchema, lSchema, uses) {
  const p = objectOf(pinned.spec, pSchema);
  const l = objectOf(latest.spec, lSchema);
  if (!p || !l) return normalize(pSchema);
  const properties = {};
  for (const k of new Set([...Object.keys(p.properties), ...Object.keys(l.properties)])) {
    if (k in p.properties && k in l.properties) properties[k] = mergedInput(p.properties[k], l.properties[k], uses);
    else if (k in p.properties) properties[k] = normalize(p.properties[k]);
    else {
      uses.push(l.properties[k]);
      properties[k] = prefixed(normalize(l.properties[k]));
    }
  }
  const required = p.required.filter((r) => l.required.includes(r));
  return { type: 'object', ...(p.description ? { description: p.description } : {}), properties, ...(required.length ? { required } : {}) };
}

function withLatestInput(art) {
  const body = (spec) => {
    const op = Object.values(spec.paths)
      .flatMap((item) => METHODS.map((m) => item[m]))
      .find((o) => o?.operationId === art.operationId);
    const rb = op && deref(spec, op.requestBody);
    return rb && Object.values(rb.content || {})[0]?.schema;
  };
  const [p, l] = [body(pinned.spec), body(latest.spec)];
  if (!p || !l) throw new Error(`${art.operationId}: a request body is missing from one of the specs`);
  const uses = [];
  art.requestBody.schema = mergedInput(p, l, uses);
  for (const [name, sch] of Object.entries(closure(latest.spec, uses))) art.components.schemas['Latest' + name] = prefixed(sch);
}

function withLatestRequest(art) {
  const found = Object.entries(latest.spec.paths).flatMap(([p, item]) =>
    METHODS.filter((m) => item[m]?.operationId === art.operationId).map((m) => [p, m, item[m], item.parameters]),
  )[0];
  if (!found) throw new Error(`${art.operationId} missing from ${latest.source}`);
  const l = build(latest, ...found);
  art.parameters = prefixed(l.parameters);
  art.requestBody = prefixed(l.requestBody);
  for (const [name, sch] of Object.entries(closure(latest.spec, { p: l.parameters, b: l.requestBody })))
    art.components.schemas['Latest' + name] = prefixed(sch);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'ops'), { recursive: true });
// Each operation without its components too (ops-head/, ~0.5 KB against ~17 KB): what a request
// of an operation without a body reads (src/contract/spec.ts loads the components when asked).
mkdirSync(join(out, 'ops-head'), { recursive: true });
const routes = [];
const arts = [];
for (const src of [pinned, latest]) {
  for (const [path, item] of Object.entries(src.spec.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      const wanted = src === pinned ? !FROM_LATEST.includes(op.operationId) : FROM_LATEST.includes(op.operationId);
      if (!wanted) continue;
      const art = build(src, path, method, op, item.parameters);
      if (BOTH_INPUTS.includes(op.operationId)) withLatestInput(art);
      if (src === pinned && LATEST_REQUEST.includes(op.operationId)) withLatestRequest(art);
      writeFileSync(join(out, 'ops', op.operationId + '.json'), JSON.stringify(art));
      writeFileSync(join(out, 'ops-head', op.operationId + '.json'), JSON.stringify({ ...art, components: undefined }));
      arts.push(art);
      routes.push([art.method, path, op.operationId]);
    }
  }
}
for (const id of FROM_LATEST) if (!routes.some((r) => r[2] === id)) throw new Error(`${id} missing from ${latest.source}`);
writeFileSync(join(out, 'routes.json'), JSON.stringify(routes));
// Every other operation of either spec, [method, path, operationId, packages]: the server answers
// those with 501 naming the operation (not implemented), never 404, which a client could not
// tell from a missing resource. A path in neither spec stays 404.
const known = new Set(routes.map((r) => r[2]));
const others = new Map();
for (const src of [pinned, latest]) {
  for (const [path, item] of Object.entries(src.spec.paths)) {
    for (const method of METHODS) {
      const id = item[method]?.operationId;
      if (!id || known.has(id)) continue;
      const key = `${method} ${path} ${id}`;
      if (others.has(key)) others.get(key)[3].push(src.source);
      else others.set(key, [method.toUpperCase(), path, id, [src.source]]);
    }
  }
}
writeFileSync(join(out, 'other-routes.json'), JSON.stringify([...others.values()]));

// The newest spec is part of the contract too (docs/manual/contract.md#the-newest-spec-is-part-of-the-contract): for every operation of the
// contract that 0.202.0 also has (by operationId), its response schemas, for the tests that check
// each answer against both specs. Only tests read these files: the CLI and the server never do.
// `moved` records an operation whose method or path differs between the two specs.
mkdirSync(join(out, 'latest'), { recursive: true });
const latestOps = new Map();
for (const [path, item] of Object.entries(latest.spec.paths)) {
  for (const method of METHODS) if (item[method]?.operationId) latestOps.set(item[method].operationId, [path, method, item[method]]);
}
const moved = [];
const latestArts = new Map();
let both = 0;
for (const [method, path, id] of routes) {
  const hit = latestOps.get(id);
  if (!hit) continue;
  const [lpath, lmethod, op] = hit;
  if (lpath !== path || lmethod.toUpperCase() !== method)
    moved.push({ operationId: id, pinned: `${method} ${path}`, latest: `${lmethod.toUpperCase()} ${lpath}` });
  const responses = {};
  for (const [status, r0] of Object.entries(op.responses || {})) {
    const r = deref(latest.spec, r0);
    const [contentType, media] = Object.entries(r.content || {})[0] || [];
    responses[status] = { contentType: contentType || null, schema: media?.schema ? normalize(media.schema) : null, headers: Object.keys(r.headers || {}) };
  }
  const art = {
    operationId: id,
    method: lmethod.toUpperCase(),
    path: lpath,
    source: latest.source,
    dialect: latest.spec.openapi.startsWith('3.1') ? '2020-12' : 'draft-07',
    responses,
    components: { schemas: closure(latest.spec, responses) },
  };
  writeFileSync(join(out, 'latest', id + '.json'), JSON.stringify(art));
  latestArts.set(id, art);
  both++;
}
writeFileSync(join(out, 'latest', 'index.json'), JSON.stringify({ source: latest.source, operations: both, moved }));
// The contract's TypeScript types (docs/manual/contract.md#the-contracts-types).
const schemasOf = (spec) => Object.fromEntries(Object.entries(spec.components.schemas).map(([n, s]) => [n, normalize(s)]));
writeFileSync(
  join(out, 'types.d.ts'),
  contractTypes({
    pinned: schemasOf(pinned.spec),
    latest: schemasOf(latest.spec),
    ops: arts,
    latestOps: latestArts,
    sources: { pinned: pinned.source, latest: latest.source },
  }),
);
console.log(`contract: ${routes.length} operations (${both} also in ${latest.source}), ${others.size} more of either spec -> ${out}`);
