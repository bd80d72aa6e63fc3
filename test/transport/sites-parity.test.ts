import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transport } from '../../src/transport/types.js';
import { recorder, runBoth } from '../helpers/parity.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Docs sites, as a list of observable outcomes (bodies, statuses, error kinds). */
async function scenario(t: Transport) {
  const { out, step } = recorder();
  const org = ((await t.call('listOrganizationsForAuthenticatedUser')).body as any).items[0].id;
  const o = { organizationId: org };
  const a = await step(() => t.call('createSpace', { path: o, body: { title: 'Guides' } }));
  const b = await step(() => t.call('createSpace', { path: o, body: { title: 'API' } }));
  const site = await step(() => t.call('createSite', { path: o, body: { title: 'Docs', spaces: [a.id] } }));
  const p = { ...o, siteId: site.id };
  const sec = await step(() => t.call('addSectionToSite', { path: p, body: { spaceId: b.id } }));
  await step(() => t.call('addSectionToSite', { path: p, body: { spaceId: 'nope' } }));
  const g = await step(() => t.call('addSectionGroupToSite', { path: p, body: { title: 'Group', sections: [sec.id] } }));
  await step(() => t.call('sortSiteStructure', { path: p, body: { item: { type: 'site-section-group', id: g.id }, position: {} } }));
  await step(() => t.call('updateSiteSectionById', { path: { ...p, siteSectionId: sec.id }, body: { condition: 'visitor.claims.x ===' } }));
  await step(() => t.call('updateSiteSectionById', { path: { ...p, siteSectionId: sec.id }, body: { condition: 'visitor.claims.beta', path: 'api' } }));
  await step(() =>
    t.call('updateSiteAdaptiveSchema', {
      path: p,
      body: { jsonSchema: { type: 'object', properties: { beta: { type: 'boolean', description: 'Beta' } }, additionalProperties: false } },
    }),
  );
  await step(() => t.call('listSiteAdaptiveTemplateConditions', { path: p }));
  await step(() => t.call('publishSite', { path: p }));
  await step(() => t.call('publishSite', { path: p }));
  await step(() => t.call('getPublishedContentSite', { path: p }));
  await step(() => t.call('listSiteSpaces', { path: p, query: { default: 'true' } }));
  await step(() => t.call('deleteSiteSectionGroupById', { path: { ...p, siteSectionGroupId: g.id } }));
  await step(() => t.call('deleteSiteSectionGroupById', { path: { ...p, siteSectionGroupId: g.id } }));
  await step(() => t.call('getSiteStructure', { path: p }));
  await step(() => t.call('deleteSiteById', { path: p }));
  await step(() => t.call('getSiteById', { path: p }));
  return out;
}

describe('docs sites: transport parity', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('gives the same results in-process and over HTTP', async () => {
    const { local: a, remote: b } = await runBoth(server, scenario);
    expect(a).toEqual(b);
    for (const kind of ['conflict', 'invalid', 'not_found']) expect(JSON.stringify(a)).toContain(`"kind":"${kind}"`);
    const statuses = a.map((x) => (Array.isArray(x) ? x[0] : undefined));
    expect(statuses).toContain(205);
    expect(statuses).toContain(204);
  });
});
