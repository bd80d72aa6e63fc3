import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';

// GET /_docs/page-sources gives the files pages were pushed from: only to whoever may list the
// pages (the same check as listPages / listPagesInChangeRequest); a stranger learns nothing,
// not even whether the space exists. A `source` is a string, bounded; a group page has no document.

let s: TestServer;
let space: string;
let cr: string;
let org: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Sources' } })).body.id;
  cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'push' } })).body.id;
  const r = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, {
    body: {
      changes: [
        { operation: 'insert_page', ref: 'g', type: 'group', title: 'Guides', slug: 'guides', document: {} },
        { operation: 'insert_page', ref: 'guides/a', into: 'g', title: 'A', slug: 'a', document: { markdown: '# A\n\nText.\n' }, source: '# A\n\nText.   \n' },
      ],
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
});
afterAll(() => s.stop());

describe('GET /_docs/page-sources', () => {
  it('answers the kept sources to whoever may read the change request, byte for byte', async () => {
    const r = await s.docs('GET', `/_docs/page-sources?spaceId=${space}&changeRequestId=${cr}`);
    expect(r.status).toBe(200);
    expect(Object.values(r.body.sources)).toEqual(['# A\n\nText.   \n']);
    expect(r.body.stale).toEqual([]);
  });

  it('answers 404 to a stranger (not a member), for the space and the change request alike', async () => {
    const stranger = await addUser(s.ctx);
    for (const q of [`spaceId=${space}`, `spaceId=${space}&changeRequestId=${cr}`]) {
      const r = await s.docs('GET', `/_docs/page-sources?${q}`, { token: stranger.token });
      expect(r.status, q).toBe(404);
      expect(JSON.stringify(r.body)).not.toContain('Text.');
    }
    expect((await s.docs('GET', `/_docs/page-sources?spaceId=${space}`, { token: null })).status).toBe(401);
  });

  it('refuses a source that is not a string, and a document on a group page (400, nothing written)', async () => {
    for (const change of [
      { operation: 'insert_page', title: 'B', document: { markdown: 'b' }, source: 42 },
      { operation: 'insert_page', type: 'group', title: 'G', document: { markdown: 'text' } },
      { operation: 'insert_page', type: 'link', title: 'L', document: {} },
    ]) {
      const r = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content`, { body: { changes: [change] } });
      expect(r.status, JSON.stringify(change)).toBe(400);
    }
  });
});
