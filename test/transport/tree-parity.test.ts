import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transport } from '../../src/transport/types.js';
import { runBoth, recorder } from '../helpers/parity.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Collections and spaces, as a list of observable outcomes (bodies, statuses, error kinds). */
async function scenario(t: Transport) {
  const { out, step } = recorder();
  const org = ((await t.call('listOrganizationsForAuthenticatedUser')).body as any).items[0].id;
  const c = await step(() => t.call('createCollection', { path: { organizationId: org }, body: { title: 'Guides' } }));
  const a = await step(() => t.call('createSpace', { path: { organizationId: org }, body: { title: 'A', parent: c.id, emoji: '📘' } }));
  const b = await step(() => t.call('createSpace', { path: { organizationId: org }, body: { title: 'B', parent: c.id } }));
  await step(() => t.call('moveSpace', { path: { spaceId: b.id }, body: { position: { before: { type: 'space', space: a.id } } } }));
  await step(() => t.call('moveSpace', { path: { spaceId: b.id }, body: { position: { before: { type: 'space', space: a.id } } } }));
  await step(() => t.call('moveCollection', { path: { collectionId: c.id }, body: { parent: c.id } }));
  await step(() => t.call('updateSpaceById', { path: { spaceId: a.id }, body: { visibility: 'public' } }));
  await step(() => t.call('duplicateSpace', { path: { spaceId: a.id } }));
  await step(() => t.call('deleteSpaceById', { path: { spaceId: a.id } }));
  await step(() => t.call('deleteSpaceById', { path: { spaceId: a.id } }));
  await step(() => t.call('restoreSpace', { path: { spaceId: a.id } }));
  await step(() => t.call('transferSpace', { path: { spaceId: a.id }, body: { organization: org } }));
  await step(() => t.call('listSpacesInCollectionById', { path: { collectionId: c.id }, query: { limit: '2' } }));
  await step(() => t.call('listCollectionsInOrganizationById', { path: { organizationId: org }, query: { nested: 'false' } }));
  await step(() => t.call('deleteCollectionById', { path: { collectionId: c.id } }));
  await step(() => t.call('getSpaceById', { path: { spaceId: b.id } }));
  return out;
}

describe('collections and spaces: transport parity', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('gives the same results in-process and over HTTP', async () => {
    const { local: a, remote: b } = await runBoth(server, scenario);
    expect(a).toEqual(b);
    for (const kind of ['conflict', 'invalid']) expect(JSON.stringify(a)).toContain(`"kind":"${kind}"`);
    const statuses = a.map((x) => (Array.isArray(x) ? x[0] : undefined));
    expect(statuses).toContain(205);
    expect(statuses).toContain(204);
  });
});
