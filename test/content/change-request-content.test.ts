import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let org: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

describe("a change request's content routes read its revision, not the space's", () => {
  it('file, file backlinks, page by path, page links, page backlinks', async () => {
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'CR content' } })).body.id;
    const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Draft pages' } })).body;
    const r = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`, {
      body: {
        changes: [
          { operation: 'insert_files', files: [{ name: 'notes.txt', ref: 'notes', contentType: 'text/plain', base64: Buffer.from('hi').toString('base64') }] },
          {
            operation: 'insert_page',
            ref: 'guide',
            title: 'Guide',
            document: { markdown: 'See [the FAQ](./faq.md), [notes](./notes) and [nowhere](/pages/missing).' },
          },
          { operation: 'insert_page', ref: 'faq', title: 'FAQ', into: 'guide', document: { markdown: 'Back to [the guide](./guide.md).' } },
        ],
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [guide, faq] = r.body.changes.map((c: any) => c.page.id);
    const file = r.body.insertedFiles[0].id;
    const base = `/v1/spaces/${space}/change-requests/${cr.number}/content`;
    const f = await s.api('GET', `${base}/files/${file}`);
    expect(f.body).toMatchObject({ id: file, name: 'notes.txt', size: 2 });
    // Not on the space yet.
    expect((await s.api('GET', `/v1/spaces/${space}/content/files/${file}`)).status).toBe(404);
    expect((await s.api('GET', `${base}/files/nope`)).status).toBe(404);
    const fb = await s.api('GET', `${base}/files/${file}/backlinks`);
    expect(fb.body.items.map((l: any) => [l.kind, l.page.id, l.versionContext.changeRequest.id])).toEqual([['page', guide, cr.id]]);
    const byPath = await s.api('GET', `${base}/path/guide%2Ffaq?format=document`);
    expect(byPath.body).toMatchObject({ id: faq, title: 'FAQ', path: 'guide/faq' });
    expect(byPath.body.document.nodes[0].type).toBe('paragraph');
    expect((await s.api('GET', `/v1/spaces/${space}/content/path/guide`)).status).toBe(404);
    expect((await s.api('GET', `${base}/path/none`)).status).toBe(404);
    const links = await s.api('GET', `${base}/page/${guide}/links`);
    expect(links.body.stats).toEqual({ total: 3, broken: { total: 1 } });
    expect(links.body.items.map((i: any) => i.status).sort()).toEqual(['broken', 'ok', 'ok']);
    const back = await s.api('GET', `${base}/page/${guide}/backlinks`);
    expect(back.body.items.map((l: any) => l.page.id)).toEqual([faq]);
    expect((await s.api('GET', `${base}/page/nope/backlinks`)).status).toBe(404);
    // Outsiders see none of it.
    const stranger = await addUser(s.ctx);
    expect((await s.api('GET', `${base}/files/${file}`, { token: stranger.token })).status).toBe(404);
    expect((await s.api('GET', `${base}/page/${guide}/links`, { token: stranger.token })).status).toBe(404);
  });
});

describe('group pages stay at the top level (both specs allow a group nowhere else)', () => {
  it('refuses a group inserted into a page or moved into one (400, nothing written)', async () => {
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Groups' } })).body.id;
    const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Groups' } })).body;
    const url = `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`;
    const made = await s.api('POST', url, {
      body: {
        changes: [
          { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'Text.' } },
          { operation: 'insert_page', ref: 'g', type: 'group', title: 'Reference', document: {} },
        ],
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const [guide, group] = made.body.changes.map((c: any) => c.page.id);
    const before = (await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}/content`)).body;

    const nested = await s.api('POST', url, { body: { changes: [{ operation: 'insert_page', type: 'group', title: 'Inner', into: guide, document: {} }] } });
    expect(nested.status).toBe(400);
    expect(nested.body.error.message).toContain('changes[0].into: a group page stays at the top level');
    const moved = await s.api('POST', url, { body: { changes: [{ operation: 'update_page', page: group, into: guide }] } });
    expect(moved.status).toBe(400);

    const after = (await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}/content`)).body;
    expect(after.pages).toEqual(before.pages);
    expect(after.pages.map((p: any) => p.type)).toEqual(['document', 'group']);
  });
});
