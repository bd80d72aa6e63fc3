import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transport } from '../../src/transport/types.js';
import { runBoth, recorder } from '../helpers/parity.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { invalidSpec, petstore } from './fixtures.js';

/** One OpenAPI scenario as a list of observable outcomes. */
async function scenario(t: Transport) {
  const { out, step } = recorder();
  const org = ((await t.call('listOrganizationsForAuthenticatedUser')).body as any).items[0].id;
  const path = { organizationId: org, specSlug: 'parity' };
  const settle = async () => {
    for (let i = 0; i < 500; i++) {
      const s = (await t.call('getOpenAPISpecBySlug', { path })).body as any;
      if (s.processingState === 'complete') return s;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('not processed');
  };
  await step(() => t.call('createOpenAPISpec', { path: { organizationId: org }, body: { slug: 'parity', source: { text: petstore() } } }));
  await step(settle);
  await step(() => t.call('createOpenAPISpec', { path: { organizationId: org }, body: { slug: 'parity', source: { text: petstore() } } }));
  await step(() => t.call('createOrUpdateOpenAPISpecBySlug', { path, body: { source: { text: invalidSpec } } }));
  await step(settle);
  await step(() => t.call('createOrUpdateOpenAPISpecBySlug', { path: { ...path, specSlug: 'Bad' }, body: { source: { text: 'x' } } }));
  await step(() => t.call('createOrUpdateOpenAPISpecBySlug', { path, body: { source: { url: 'ftp://x/y' } } }));
  await step(() => t.call('updateOpenAPISpecBySlug', { path, body: { visibility: 'public' } }));
  await step(() => t.call('listOpenAPISpecs', { path: { organizationId: org } }));
  await step(() => t.call('listOpenAPISpecVersions', { path }));
  await step(() => t.call('getOpenAPISpecVersionById', { path: { ...path, versionId: 'latest' } }));
  await step(() => t.call('getOpenAPISpecVersionContentById', { path: { ...path, versionId: 'latest' } }));
  await step(() => t.call('getLatestOpenAPISpecVersionContent', { path }));
  await step(() => t.call('getOpenAPISpecVersionById', { path: { ...path, versionId: 'AAAAAAAAAAAAAAAAAAAA' } }));
  await step(() => t.call('deleteOpenAPISpecBySlug', { path }));
  await step(() => t.call('deleteOpenAPISpecBySlug', { path }));
  await step(() => t.call('getOpenAPISpecBySlug', { path }));
  return out;
}

describe('OpenAPI transport parity', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('gives the same results in-process (processing in this process) and over HTTP', async () => {
    const { local: a, remote: b } = await runBoth(server, scenario);
    expect(a).toEqual(b);
    const text = JSON.stringify(a);
    for (const kind of ['conflict', 'invalid', 'not_found']) expect(text).toContain(`"kind":"${kind}"`);
    const statuses = a.map((x) => (Array.isArray(x) ? x[0] : undefined));
    expect(statuses).toContain(205);
    expect(statuses).toContain(204);
  });
});
