import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitBookAPI as ClientLatest } from 'gitbook-api-latest';
import { checkingFetch as checkingFetchInto, type Seen } from '../helpers/checking-fetch.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { buildWorld, type World } from '../helpers/world.js';

// Issue 32, "Done when": the official @gitbook/api 0.202.0 client runs a script touching each
// area of GitBook API parity part 2 against `docs serve` without a failure, each answer checked
// against both specs (the 0.146.0 one where it has the operation). The areas, in the issue's
// order: site structure and delivery, insights, ask and questions, site context, organization
// (audit, style guides, agent conversations, glossary, AI usage), Git Sync installations, and the
// rest (change-request conversations, page meta links, the raw spec, the notifications token).
// The part 1 script (official-client.test.ts) covers the calls of 0.146.0's areas.

let s: TestServer;
let w: World;

/** Every answer the client received: its operation, and its problem under each spec. */
const seen: Seen[] = [];
const checkingFetch = checkingFetchInto(seen);

beforeAll(async () => {
  s = await startServer();
  w = await buildWorld(s);
}, 120_000);
afterAll(() => s?.stop());

describe('@gitbook/api 0.202.0, a script over the areas of parity part 2', () => {
  it('every call succeeds and every answer is valid under both specs', async () => {
    const api: any = new ClientLatest({ endpoint: s.url, authToken: s.token, serviceBinding: { fetch: checkingFetch } });
    const { organizationId: org, siteId: site, spaceId: space, siteSpaceId, pageId, specSlug, changeRequestId } = w.ids as Record<string, string>;
    const failures: string[] = [];
    const results: Record<string, any> = {};
    const step = async (name: string, call: () => Promise<{ data: any }>) => {
      try {
        results[name] = (await call()).data;
      } catch (err: any) {
        failures.push(`${name}: ${err.code ?? ''} ${err.message}`);
      }
    };

    // Site structure and delivery.
    // To a site space (an `external` destination is 0.202.0's alone: docs/manual/contract.md).
    await step('createSiteRedirect', () => api.orgs.createSiteRedirect(org, site, { source: '/old-guide', destination: { kind: 'site-space', siteSpaceId } }));
    await step('listSiteRedirects', () => api.orgs.listSiteRedirects(org, site));
    await step('addExternalLinkToSite', () => api.orgs.addExternalLinkToSite(org, site, { title: 'Status', url: 'https://status.example.com' }));
    await step('listSiteChannels', () => api.orgs.listSiteChannels(org, site));
    await step('getSiteAgentSettingsById', () => api.orgs.getSiteAgentSettingsById(org, site));
    await step('listSiteMcpServers', () => api.orgs.listSiteMcpServers(org, site));
    await step('listCustomFonts', () => api.orgs.listCustomFonts(org));
    await step('searchSiteContent', () => api.orgs.searchSiteContent(org, site, { query: 'install', scope: { mode: 'default' } }));

    // Insights: events recorded, then aggregated; the visitor segments.
    const session = { visitorId: 'v1', sessionId: 's1', cookies: {}, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0', language: 'en', referrer: '' };
    const location = { url: 'https://docs.example/intro', siteSection: null, siteSpace: siteSpaceId, siteShareKey: null, space, revision: null, page: pageId };
    await step('trackEventsInSiteById', () => api.orgs.trackEventsInSiteById(org, site, { events: [{ type: 'page_view', session, location }] }));
    await step('aggregateSiteEvents', () => api.orgs.aggregateSiteEvents(org, site, { range: 'last7Days', select: [{ column: 'eventsCount' }] }));
    await step('listSiteVisitorSegments', () => api.orgs.listSiteVisitorSegments(org, site));

    // Ask and questions.
    await step('askInOrganization', () => api.orgs.askInOrganization(org, { query: 'How do I install it?' }));
    await step('getRecommendedQuestionsInOrganization', () => api.orgs.getRecommendedQuestionsInOrganization(org));
    await step('listSiteQuestions', () => api.orgs.listSiteQuestions(org, site));

    // Site context: a connection fed through the API, its records, scans, findings, topics.
    await step('createSiteContextConnection', () => api.orgs.createSiteContextConnection(org, site, { connector: 'builtin:api', label: 'Support' }));
    const connection = results.createSiteContextConnection?.id as string | undefined;
    await step('listSiteContextConnections', () => api.orgs.listSiteContextConnections(org, site));
    if (connection) {
      await step('getSiteContextConnectionById', () => api.orgs.getSiteContextConnectionById(org, site, connection));
      await step('upsertSiteContextRecords', () =>
        api.orgs.upsertSiteContextRecords(org, site, [
          { id: 't-1', type: 'ticket', title: 'Cannot install on Windows', body: 'The installer stops at step 2 on Windows.' },
        ]),
      );
    }
    await step('listSiteContextRecords', () => api.orgs.listSiteContextRecords(org, site));
    await step('listSiteScans', () => api.orgs.listSiteScans(org, site));
    await step('listSiteFindings', () => api.orgs.listSiteFindings(org, site));
    await step('getSiteFindingStats', () => api.orgs.getSiteFindingStats(org, site));
    await step('listSiteTopics', () => api.orgs.listSiteTopics(org, site));

    // Organization: audit, style guides, agent conversations, glossary, AI usage.
    await step('listOrganizationAuditEvents', () => api.orgs.listOrganizationAuditEvents(org));
    await step('listOrganizationAuditEventActions', () => api.orgs.listOrganizationAuditEventActions(org));
    await step('listStyleguideTemplates', () => api.orgs.listStyleguideTemplates(org));
    await step('listOrganizationStyleguides', () => api.orgs.listOrganizationStyleguides(org));
    await step('listOrganizationAgentConversations', () => api.orgs.listOrganizationAgentConversations(org));
    await step('listGlossaryEntries', () => api.orgs.listGlossaryEntries(org));
    const to = new Date(Date.now() + 86_400_000).toISOString();
    await step('getOrganizationAiUsage', () => api.orgs.getOrganizationAiUsage(org, { from: new Date(Date.now() - 7 * 86_400_000).toISOString(), to }));

    // Git Sync installations.
    await step('listSiteGitSyncInstallations', () => api.orgs.listSiteGitSyncInstallations(org, site));

    // The rest.
    await step('listChangeRequestConversations', () => api.spaces.listChangeRequestConversations(space, changeRequestId));
    await step('listSpacePageMetaLinks', () => api.spaces.listSpacePageMetaLinks(space, pageId));
    await step('getLatestOpenApiSpecVersionContentRaw', () => api.orgs.getLatestOpenApiSpecVersionContentRaw(org, specSlug));
    await step('createUserNotificationsToken', () => api.user.createUserNotificationsToken());

    expect(failures).toEqual([]);
    expect(seen.filter((x) => x.problems.length)).toEqual([]);
    // The script's reach: every call above answered, as the operation it names.
    const ops = new Set(seen.map((x) => x.operationId));
    expect(ops.size, [...ops].join(' ')).toBe(Object.keys(results).length); // each call its own operation, each answered
    // What the calls did: the record is listed, the redirect too.
    expect(JSON.stringify(results.listSiteContextRecords?.items ?? [])).toContain('Cannot install on Windows');
    expect(JSON.stringify(results.listSiteRedirects?.items ?? [])).toContain('/old-guide');
  }, 120_000);
});
