import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transport } from '../../src/transport/types.js';
import { runBoth, recorder } from '../helpers/parity.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** One scenario, as a list of observable outcomes (bodies, statuses, error kinds and messages). */
async function scenario(t: Transport) {
  const { out, step } = recorder();
  await step(() => t.call('getAuthenticatedUser'));
  const { id } = await step(() => t.call('createOrganization', { body: { title: 'Parity Org', emailDomains: ['example.com'] } }));
  await step(() => t.call('getOrganizationById', { path: { organizationId: id } }));
  await step(() => t.call('listOrganizationsForAuthenticatedUser', { query: { limit: 1 } }));
  await step(() => t.call('listOrganizationsForAuthenticatedUser', { query: { limit: '2' } }));
  await step(() => t.call('getOrganizationById', { path: { organizationId: 'missing' } }));
  await step(() => t.call('createOrganization', { body: { title: 'x' } }));
  await step(() => t.call('createOrganization', { body: { title: 'Ok', emailDomains: 'nope' } }));
  await step(() => t.call('listOrganizationsForAuthenticatedUser', { query: { page: 'forged' } }));
  await step(() => t.request('GET', `/orgs/${id}`));
  await step(() => t.request('GET', '/nope'));
  await step(() => t.request('PATCH', '/orgs'));
  return out;
}

describe('transport parity', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('gives the same results in-process and over HTTP, field by field', async () => {
    const { local: a, remote: b } = await runBoth(server, scenario);
    expect(a).toEqual(b);
    // The scenario really exercised errors of several kinds on both sides.
    expect(JSON.stringify(a)).toContain('"kind":"not_found"');
    expect(JSON.stringify(a)).toContain('"kind":"invalid"');
  });
});
