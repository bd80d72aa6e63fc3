import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationsIdle } from '../../src/conversations/processor.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let org: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

const msg = (body: string) => ({ type: 'message', role: 'user', body });

describe('change requests and issues clusters', () => {
  it('link a change request to the cluster it addresses, and filter by it', async () => {
    const ingest = await s.api('POST', `/v1/orgs/${org}/conversations`, {
      body: [{ id: 'p1', parts: [msg('The password reset email never arrives, I cannot reset my password at all.')] }],
    });
    expect(ingest.status).toBe(204);
    await conversationsIdle(s.ctx);
    const cluster = (await s.api('GET', `/v1/orgs/${org}/conversations-clusters`)).body.items[0].id;
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Help' } })).body.id;
    const linked = await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Explain resets', conversationsIssuesCluster: cluster } });
    expect(linked.status).toBe(201);
    expect(linked.body.conversationsIssuesCluster).toBe(cluster);
    await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Other' } });
    const filtered = await s.api('GET', `/v1/spaces/${space}/change-requests?conversationsIssuesCluster=${cluster}`);
    expect(filtered.body.items.map((c: any) => c.id)).toEqual([linked.body.id]);
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests`)).body.count).toBe(2);
    // An unknown cluster is refused, on create (nothing created) and as a filter.
    const bad = await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'x', conversationsIssuesCluster: 'nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^conversationsIssuesCluster: /);
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests`)).body.count).toBe(2);
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests?conversationsIssuesCluster=nope`)).status).toBe(400);
  });
});
