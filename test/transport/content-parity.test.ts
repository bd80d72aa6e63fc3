import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transport } from '../../src/transport/types.js';
import { recorder, runBoth } from '../helpers/parity.js';
import { startServer, type TestServer } from '../helpers/server.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000003000000020806000000', 'hex');

/** Content, as a list of observable outcomes (bodies, statuses, error kinds, downloaded bytes). */
async function scenario(t: Transport) {
  const { out, step } = recorder();
  const org = ((await t.call('listOrganizationsForAuthenticatedUser')).body as any).items[0].id;
  const space = await step(() => t.call('createSpace', { path: { organizationId: org }, body: { title: 'Docs' } }));
  const spaceId = space.id;
  const cr = await step(() => t.call('createChangeRequest', { path: { spaceId }, body: { subject: 'First' } }));
  const changeRequestId = cr.id;
  const changes = [
    { operation: 'insert_files', files: [{ name: 'dot.png', ref: 'dot', contentType: 'image/png', base64: PNG.toString('base64') }] },
    { operation: 'insert_page', ref: 'a', document: { markdown: '# Alpha\n\nSee [beta](./b.md) and ![dot](./dot).\n\n## Usage\n\nRun it.' } },
    { operation: 'insert_page', ref: 'b', title: 'Beta', into: 'a', document: { markdown: 'Broken [link](./nowhere.md).' } },
  ];
  const res = await step(() => t.call('updateChangeRequestContent', { path: { spaceId, changeRequestId }, query: { compat: false }, body: { changes } }));
  await step(() =>
    t.call('updateChangeRequestContent', { path: { spaceId, changeRequestId }, body: { changes: [{ operation: 'delete_page', page: 'nope' }] } }),
  );
  await step(() => t.call('mergeChangeRequest', { path: { spaceId, changeRequestId: '1' } }));
  await step(() => t.call('mergeChangeRequest', { path: { spaceId, changeRequestId: '1' } }));
  await step(() => t.call('getCurrentRevision', { path: { spaceId } }));
  await step(() => t.call('getPageByPath', { path: { spaceId, pagePath: 'alpha/beta' }, query: { format: 'document' } }));
  await step(() => t.call('searchSpaceContent', { path: { spaceId }, query: { query: 'run' } }));
  await step(() => t.call('listSpaceLinks', { path: { spaceId }, query: { status: 'broken' } }));
  await step(() => t.call('listSpaceFileBacklinks', { path: { spaceId, fileId: res.insertedFiles[0].id } }));
  await step(() => t.call('applyTemplateToSpace', { path: { spaceId }, body: { id: 'nope' } }));
  const files = await step(() => t.call('listFiles', { path: { spaceId } }));
  out.push((await t.download(files.items[0].downloadURL)).equals(PNG));
  return out;
}

describe('content: transport parity', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('gives the same results in-process and over HTTP, downloads included', async () => {
    const { local: a, remote: b } = await runBoth(server, scenario);
    expect(a).toEqual(b);
    for (const kind of ['conflict', 'invalid']) expect(JSON.stringify(a)).toContain(`"kind":"${kind}"`);
    expect(a[a.length - 1]).toBe(true);
  });
});
