import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitBookAPI as Client0146 } from 'gitbook-api-0146';
import { GitBookAPI as ClientLatest } from 'gitbook-api-latest';
import { checkingFetch as checkingFetchInto, type Seen } from '../helpers/checking-fetch.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { buildWorld, type World } from '../helpers/world.js';

// Issue 27, "Measured": the official @gitbook/api 0.202.0 client (what `npm install @gitbook/api`
// gives today) runs a script of the calls its users make, against `docs serve`, with no failure;
// every answer it receives is checked against both specs. The client's own fetch is wrapped
// through its `serviceBinding` option (what it uses instead of the global fetch), which the
// installation client of `createInstallationClient()` inherits, so its calls are checked too.
// The 0.146.0 client runs the page-by-path part (nested paths, sent with unencoded slashes).

let s: TestServer;
let w: World;
let ids: Record<string, string>;
let nested: { guide: string; setup: string; cr: string; revision: string };
let reusable: string;
let documentId: string;
let stranger: string;

/** Every answer the client received: its operation, and its problem under each spec. */
const seen: Seen[] = [];
const checkingFetch = checkingFetchInto(seen);

beforeAll(async () => {
  s = await startServer();
  w = await buildWorld(s);
  ids = w.ids;
  const sp = `/v1/spaces/${ids.spaceId}`;
  // A nested page (guide/setup) and a reusable block, merged; then an open change request.
  const cr = await w.owner('POST', `${sp}/change-requests`, { subject: 'Nested pages' });
  const made = await w.owner('POST', `${sp}/change-requests/${cr.id}/content?compat=false`, {
    changes: [
      { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'The guide.' } },
      { operation: 'insert_page', ref: 'setup', title: 'Setup', into: 'guide', document: { markdown: 'Run it.\n\n{% include "warn" %}\n' } },
      { operation: 'insert_page', type: 'reusable-content', ref: 'warn', title: 'Warning', document: { markdown: 'Ask **support** first.\n' } },
    ],
  });
  const idOf = (ref: string) => {
    const c = made.changes.find((x: any) => x.ref === ref);
    return typeof c.page === 'string' ? c.page : c.page.id;
  };
  reusable = idOf('warn');
  const revision = (await w.owner('POST', `${sp}/change-requests/${cr.id}/merge`)).revision;
  const open = await w.owner('POST', `${sp}/change-requests`, { subject: 'Still open' });
  nested = { guide: idOf('guide'), setup: idOf('setup'), cr: open.id, revision };
  documentId = (await w.owner('GET', `${sp}/content/page/${nested.setup}`)).documentId;
  // A member of the organization with no access to the space yet, to invite.
  stranger = (await addUser(s.ctx, ids.organizationId!, 'read')).userId;
  // The installation acts on the world's space only.
  await w.owner('PATCH', `/v1/integrations/${ids.integrationName}/installations/${ids.installationId}`, { space_selection: 'selected' });
  await w.owner('POST', `/v1/integrations/${ids.integrationName}/installations/${ids.installationId}/spaces`, { space: ids.spaceId });
}, 120_000);
afterAll(() => s?.stop());

describe('@gitbook/api 0.202.0, a script of the calls its users make', () => {
  it('every call succeeds and every answer is valid under both specs', async () => {
    // The client's types do not resolve under this project's module settings: the calls are the
    // client's own (a wrong name fails at run time).
    const api: any = new ClientLatest({ endpoint: s.url, authToken: s.token, serviceBinding: { fetch: checkingFetch } });
    const org = ids.organizationId!;
    const space = ids.spaceId!;
    const site = ids.siteId!;
    const failures: string[] = [];
    const results: Record<string, any> = {};
    const step = async (name: string, call: () => Promise<{ data: any }>) => {
      try {
        results[name] = (await call()).data;
      } catch (err: any) {
        failures.push(`${name}: ${err.code ?? ''} ${err.message}`);
      }
    };

    // URLs and the core.
    await step('getApiInformation', () => api.getApiInformation());
    await step('getAuthenticatedUser', () => api.user.getAuthenticatedUser());
    await step('listOrganizationsForAuthenticatedUser', () => api.orgs.listOrganizationsForAuthenticatedUser());
    await step('getOrganizationById', () => api.orgs.getOrganizationById(org));
    await step('getContentByUrl', () => api.urls.getContentByUrl({ url: `${s.url}/o/${org}/s/${space}` }));

    // Spaces and pages by path (nested, slashes unencoded) on the space, a change request, a revision.
    await step('listSpacesInOrganizationById', () => api.orgs.listSpacesInOrganizationById(org));
    await step('getSpaceById', () => api.spaces.getSpaceById(space));
    await step('listPages', () => api.spaces.listPages(space));
    await step('getPageByPath', () => api.spaces.getPageByPath(space, 'guide/setup'));
    await step('getPageInChangeRequestByPath', () => api.spaces.getPageInChangeRequestByPath(space, nested.cr, 'guide/setup'));
    await step('getPageInRevisionByPath', () => api.spaces.getPageInRevisionByPath(space, nested.revision, 'guide/setup'));

    // Revisions and documents.
    await step('getCurrentRevision', () => api.spaces.getCurrentRevision(space));
    await step('getRevisionById', () => api.spaces.getRevisionById(space, nested.revision));
    await step('listPagesInRevisionById', () => api.spaces.listPagesInRevisionById(space, nested.revision));
    await step('getPageInRevisionById', () => api.spaces.getPageInRevisionById(space, nested.revision, nested.setup));
    await step('getPageDocumentInRevisionById', () => api.spaces.getPageDocumentInRevisionById(space, nested.revision, nested.setup));
    await step('listFilesInRevisionById', () => api.spaces.listFilesInRevisionById(space, nested.revision));
    await step('getRevisionSemanticChanges', () => api.spaces.getRevisionSemanticChanges(space, nested.revision));
    await step('getDocumentById', () => api.spaces.getDocumentById(space, documentId));
    await step('getReusableContentById', () => api.spaces.getReusableContentById(space, reusable));
    await step('getComputedRevision', () =>
      api.spaces.getComputedRevision(space, {
        seed: 's1',
        source: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: ids.specSlug } } }, props: { models: true } },
      }),
    );
    await step('getComputedDocument', () =>
      api.spaces.getComputedDocument(space, {
        seed: 's1',
        source: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: ids.specSlug } } }, props: { doc: 'models' } },
      }),
    );

    // Change requests: create, read, list, merge (its content written by the project's batch route).
    await step('createChangeRequest', () => api.spaces.createChangeRequest(space, { subject: 'From the client' }));
    const crId = results.createChangeRequest?.id;
    if (crId)
      await w.owner('POST', `/v1/spaces/${space}/change-requests/${crId}/content?compat=false`, {
        changes: [{ operation: 'insert_page', title: 'Client page', document: { markdown: 'Written for the client.' } }],
      });
    await step('getChangeRequestById', () => api.spaces.getChangeRequestById(space, crId));
    await step('listChangeRequestsForSpace', () => api.spaces.listChangeRequestsForSpace(space));
    await step('mergeChangeRequest', () => api.spaces.mergeChangeRequest(space, crId));

    // Comments.
    await step('postCommentInSpace', () => api.spaces.postCommentInSpace(space, { body: { markdown: 'From the client.' }, page: nested.setup }));
    await step('listCommentsInSpace', () => api.spaces.listCommentsInSpace(space));

    // Permissions: invite a user and a team to the space, the collection and the site; list; aggregates.
    await step('inviteToSpace', () => api.spaces.inviteToSpace(space, { role: 'read', users: [stranger], teams: [ids.teamId] }));
    await step('listUserPermissionsInSpace', () => api.spaces.listUserPermissionsInSpace(space));
    await step('listTeamPermissionsInSpace', () => api.spaces.listTeamPermissionsInSpace(space));
    await step('listPermissionsAggregateInSpace', () => api.spaces.listPermissionsAggregateInSpace(space));
    await step('inviteToCollection', () => api.collections.inviteToCollection(ids.collectionId, { role: 'read', users: [stranger] }));
    await step('listPermissionsAggregateInCollection', () => api.collections.listPermissionsAggregateInCollection(ids.collectionId));
    await step('inviteToSite', () => api.orgs.inviteToSite(org, site, { role: 'read', teams: [ids.teamId] }));
    await step('listPermissionsAggregateInSite', () => api.orgs.listPermissionsAggregateInSite(org, site));

    // Sites: read, sections, site spaces, customization (read and written back), publishing.
    await step('listSites', () => api.orgs.listSites(org));
    await step('getSiteById', () => api.orgs.getSiteById(org, site));
    await step('listSiteSections', () => api.orgs.listSiteSections(org, site));
    await step('listSiteSpaces', () => api.orgs.listSiteSpaces(org, site));
    await step('getSiteCustomizationById', () => api.orgs.getSiteCustomizationById(org, site));
    if (results.getSiteCustomizationById)
      await step('updateSiteCustomizationById', () => api.orgs.updateSiteCustomizationById(org, site, results.getSiteCustomizationById));
    await step('publishSite', () => api.orgs.publishSite(org, site));
    await step('getSitePublishingAuthById', () => api.orgs.getSitePublishingAuthById(org, site));
    await step('getSitePublishingPreviewById', () => api.orgs.getSitePublishingPreviewById(org, site));
    // The site's published address, as the client's users resolve it.
    const published = (await w.owner('GET', `/v1/orgs/${org}/sites/${site}`)).urls.published as string;
    await step('getPublishedContentByUrl', () => api.urls.getPublishedContentByUrl({ url: published }));
    await step('resolvePublishedContentByUrl', () => api.urls.resolvePublishedContentByUrl({ url: published }));

    // Search.
    await step('searchSpaceContent', () => api.spaces.searchSpaceContent(space, { query: 'install' }));
    await step('searchOrganizationContent', () => api.orgs.searchOrganizationContent(org, { query: 'install' }));
    await step('searchSiteContent', () => api.orgs.searchSiteContent(org, site, { query: 'install', scope: { mode: 'default' } }));

    // OpenAPI specs.
    await step('listOpenAPISpecs', () => api.orgs.listOpenApiSpecs(org));
    await step('getOpenAPISpecBySlug', () => api.orgs.getOpenApiSpecBySlug(org, ids.specSlug));
    await step('listOpenAPISpecVersions', () => api.orgs.listOpenApiSpecVersions(org, ids.specSlug));
    await step('getLatestOpenAPISpecVersionContent', () => api.orgs.getLatestOpenApiSpecVersionContent(org, ids.specSlug));

    // Imports: a markdown file uploaded into a change request, imported into it.
    const importCr = (await w.owner('POST', `/v1/spaces/${space}/change-requests`, { subject: 'Import' })).id;
    const upload = await w.owner('POST', `/v1/spaces/${space}/change-requests/${importCr}/content?compat=false`, {
      changes: [
        {
          operation: 'insert_files',
          files: [{ name: 'imported.md', contentType: 'text/markdown', base64: Buffer.from('# Imported\n\nHi.\n').toString('base64') }],
        },
      ],
    });
    await step('startImportRun', () =>
      api.org.startImportRun(org, { source: { type: 'file', files: [upload.insertedFiles[0].id] }, target: { space, changeRequest: importCr } }),
    );
    await step('listImportRuns', () => api.org.listImportRuns(org));
    if (results.startImportRun) await step('getImportRun', () => api.org.getImportRun(org, results.startImportRun.id));

    // Integrations: an installation token, and the SDK's installation client acting with it.
    await step('listSpaceIntegrations', () => api.spaces.listSpaceIntegrations(space));
    await step('createIntegrationInstallationToken', () => api.integrations.createIntegrationInstallationToken(ids.integrationName, ids.installationId));
    try {
      const installation: any = await api.createInstallationClient(ids.integrationName, ids.installationId);
      // The world's integration holds space:content:read: it reads the pages of its space.
      await step('installation client: listPages', () => installation.spaces.listPages(space));
      await step('installation client: getPageByPath', () => installation.spaces.getPageByPath(space, 'guide/setup'));
    } catch (err: any) {
      failures.push(`createInstallationClient: ${err.code ?? ''} ${err.message}`);
    }

    expect(failures).toEqual([]);
    // What was received: each answer valid under both specs, and the script's reach.
    expect(seen.filter((x) => x.problems.length)).toEqual([]);
    const ops = new Set(seen.map((x) => x.operationId));
    expect(ops.size, [...ops].join(' ')).toBeGreaterThanOrEqual(30);
    // The nested path reached the nested page, in each of its three forms.
    for (const k of ['getPageByPath', 'getPageInChangeRequestByPath', 'getPageInRevisionByPath']) expect(results[k], k).toMatchObject({ id: nested.setup });
    expect(results['installation client: getPageByPath']).toMatchObject({ id: nested.setup });
    // The aggregate is per user: the invited user, and the invited team's member.
    expect(JSON.stringify(results.listPermissionsAggregateInSpace.items)).toContain(stranger);
    expect(JSON.stringify(results.listPermissionsAggregateInSpace.items)).toContain(ids.userId);
    expect(results.getReusableContentById).toMatchObject({ id: reusable, title: 'Warning' });
  }, 120_000);
});

describe('@gitbook/api 0.146.0, pages by path', () => {
  it('reads a nested page by its path, slashes unencoded, in the space, a change request and a revision', async () => {
    const api: any = new Client0146({ endpoint: s.url, authToken: s.token, serviceBinding: { fetch: checkingFetch } });
    const space = ids.spaceId!;
    const before = seen.length;
    expect((await api.spaces.getPageByPath(space, 'guide/setup')).data).toMatchObject({ id: nested.setup, title: 'Setup' });
    expect((await api.spaces.getPageInChangeRequestByPath(space, nested.cr, 'guide/setup')).data).toMatchObject({ id: nested.setup });
    expect((await api.spaces.getPageInRevisionByPath(space, nested.revision, 'guide/setup')).data).toMatchObject({ id: nested.setup });
    expect((await api.spaces.getPageByPath(space, 'guide')).data).toMatchObject({ id: nested.guide });
    await expect(api.spaces.getPageByPath(space, 'guide/nope')).rejects.toMatchObject({ code: 404 });
    expect(seen.slice(before).map((x) => x.operationId)).toEqual(['getPageByPath', 'getPageInChangeRequestByPath', 'getPageInRevisionByPath', 'getPageByPath']);
    expect(seen.slice(before).filter((x) => x.problems.length)).toEqual([]);
  });
});
