import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transport } from '../../src/transport/types.js';
import { recorder, runBoth } from '../helpers/parity.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Change requests: PATCH moves, a clean merge, a conflicting merge and update, errors. */
async function scenario(t: Transport) {
  const { out, step } = recorder();
  const org = ((await t.call('listOrganizationsForAuthenticatedUser')).body as any).items[0].id;
  const spaceId = (await step(() => t.call('createSpace', { path: { organizationId: org }, body: { title: 'Docs' } }))).id;
  const content = (n: string, changes: object[]) =>
    step(() => t.call('updateChangeRequestContent', { path: { spaceId, changeRequestId: n }, query: { compat: false }, body: { changes } }));
  await step(() => t.call('createChangeRequest', { path: { spaceId }, body: { subject: 'Seed' } }));
  const page = (await content('1', [{ operation: 'insert_page', title: 'Guide', document: { markdown: 'One.\n\nTwo.\n' } }])).changes[0].page.id;
  await step(() => t.call('mergeChangeRequest', { path: { spaceId, changeRequestId: '1' } }));
  for (const subject of ['A', 'B']) await step(() => t.call('createChangeRequest', { path: { spaceId }, body: { subject } }));
  await content('2', [{ operation: 'update_page', page, document: { markdown: 'One by A.\n\nTwo.\n' } }]);
  await content('3', [{ operation: 'update_page', page, document: { markdown: 'One by B.\n\nTwo.\n' } }]);
  await step(() => t.call('updateChangeRequestById', { path: { spaceId, changeRequestId: '3' }, body: { status: 'draft', subject: 'B, draft' } }));
  await step(() => t.call('mergeChangeRequest', { path: { spaceId, changeRequestId: '3' } }));
  await step(() => t.call('updateChangeRequestById', { path: { spaceId, changeRequestId: '3' }, body: {} }));
  await step(() => t.call('updateChangeRequestById', { path: { spaceId, changeRequestId: '3' }, body: { status: 'open' } }));
  await step(() => t.call('mergeChangeRequest', { path: { spaceId, changeRequestId: '2' } }));
  await step(() => t.call('mergeChangeRequest', { path: { spaceId, changeRequestId: '3' } }));
  await step(() => t.call('updateChangeRequest', { path: { spaceId, changeRequestId: '3' } }));
  await content('3', [{ operation: 'revert_page', page }]);
  await step(() => t.call('updateChangeRequest', { path: { spaceId, changeRequestId: '3' } }));
  await step(() => t.call('getChangeRequestById', { path: { spaceId, changeRequestId: '3' } }));
  await step(() => t.call('updateChangeRequestById', { path: { spaceId, changeRequestId: '2' }, body: { status: 'open' } }));
  await step(() => t.call('getSpaceById', { path: { spaceId } }));
  return out;
}

describe('change requests: transport parity', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('gives the same outcomes in-process and over HTTP', async () => {
    const { local, remote } = await runBoth(server, scenario);
    expect(remote).toEqual(local);
    // The scenario reaches what it means to: a conflict, then an update.
    expect(JSON.stringify(local)).toContain('"result":"conflicts"');
    expect(JSON.stringify(local)).toContain('"result":"update"');
  });
});
