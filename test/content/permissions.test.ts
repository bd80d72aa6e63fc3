import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let org: string;
let space: string;
let cr: any;
let page: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Team docs' } })).body.id;
  cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Seed' } })).body;
  const r = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`, {
    body: { changes: [{ operation: 'insert_page', title: 'Home', document: { markdown: 'Welcome home.' } }] },
  });
  page = r.body.changes[0].page.id;
});
afterAll(() => s.stop());

const body = { changes: [{ operation: 'insert_page', title: 'More', document: { markdown: 'x' } }] };

describe('content rights', () => {
  it('readers read and search, but cannot open change requests or write content (403 naming the level)', async () => {
    const reader = await addUser(s.ctx, org, 'read');
    expect((await s.api('GET', `/v1/spaces/${space}/content/pages`, { token: reader.token })).status).toBe(200);
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.number}`, { token: reader.token })).status).toBe(200);
    const create = await s.api('POST', `/v1/spaces/${space}/change-requests`, { token: reader.token, body: {} });
    expect(create.status).toBe(403);
    expect(create.body.error.message).toMatch(/edit/);
    const write = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, { token: reader.token, body });
    expect(write.status).toBe(403);
    const tpl = await s.api('POST', `/v1/spaces/${space}/content/template`, { token: reader.token, body: { id: 'getting-started' } });
    expect(tpl.status).toBe(403);
  });

  it('editors write but cannot merge (review needed); non-members get 404', async () => {
    const editor = await addUser(s.ctx, org, 'edit');
    expect((await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, { token: editor.token, body })).status).toBe(200);
    const merge = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`, { token: editor.token });
    expect(merge.status).toBe(403);
    expect(merge.body.error.message).toMatch(/review/);
    const stranger = await addUser(s.ctx);
    for (const path of [
      `/v1/spaces/${space}/content`,
      `/v1/spaces/${space}/content/page/${page}`,
      `/v1/spaces/${space}/search?query=home`,
      `/v1/spaces/${space}/links`,
    ]) {
      expect((await s.api('GET', path, { token: stranger.token })).status, path).toBe(404);
    }
    expect((await s.api('GET', `/v1/orgs/${org}/search?query=home`, { token: stranger.token })).status).toBe(404);
  });

  it('a locked space refuses content writes and merges, even to admins; a merged change request takes no more content', async () => {
    const other = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Locked' } })).body.id;
    const c = (await s.api('POST', `/v1/spaces/${other}/change-requests`, { body: {} })).body;
    await s.api('PATCH', `/v1/spaces/${other}`, { body: { editMode: 'locked' } });
    const w = await s.api('POST', `/v1/spaces/${other}/change-requests/${c.id}/content`, { body });
    expect(w.status).toBe(403);
    expect(w.body.error.message).toMatch(/locked/);
    expect((await s.api('POST', `/v1/spaces/${other}/change-requests/${c.id}/merge`)).status).toBe(403);
    await s.api('PATCH', `/v1/spaces/${other}`, { body: { editMode: 'live' } });
    expect((await s.api('POST', `/v1/spaces/${other}/change-requests/${c.id}/merge`)).status).toBe(200);
    const again = await s.api('POST', `/v1/spaces/${other}/change-requests/${c.id}/content`, { body });
    expect(again.status).toBe(409);
    expect((await s.api('POST', `/v1/spaces/${other}/change-requests/${c.id}/merge`)).status).toBe(409);
  });

  it('numbers change requests per space and lists open ones', async () => {
    const sp = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: {} })).body.id;
    const a = (await s.api('POST', `/v1/spaces/${sp}/change-requests`, { body: { subject: 'A' } })).body;
    const b = (await s.api('POST', `/v1/spaces/${sp}/change-requests`, { body: { subject: 'B' } })).body;
    expect([a.number, b.number]).toEqual([1, 2]);
    expect((await s.api('GET', `/v1/spaces/${sp}/change-requests/2`)).body.id).toBe(b.id);
    expect((await s.api('GET', `/v1/spaces/${sp}/change-requests/3`)).status).toBe(404);
    expect((await s.api('GET', `/v1/spaces/${sp}`)).body.changeRequestsOpen).toBe(2);
    const list = await s.api('GET', `/v1/spaces/${sp}/change-requests`);
    expect(list.body.items.map((x: any) => x.subject)).toEqual(['B', 'A']);
    const long = await s.api('POST', `/v1/spaces/${sp}/change-requests`, { body: { subject: 'x'.repeat(101) } });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toMatch(/^subject: /);
  });
});
