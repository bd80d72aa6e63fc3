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

describe("a member's spaces", () => {
  it('lists the spaces a member reaches with their level, and counts them on the member', async () => {
    const reader = await addUser(s.ctx, org, 'read');
    const open = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Open' } })).body;
    const closed = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Closed' } })).body;
    const edited = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Edited' } })).body;
    expect((await s.api('PATCH', `/v1/spaces/${closed.id}`, { body: { defaultLevel: null } })).status).toBe(200);
    expect((await s.api('PATCH', `/v1/spaces/${edited.id}`, { body: { defaultLevel: 'edit' } })).status).toBe(200);

    const list = await s.api('GET', `/v1/orgs/${org}/members/${reader.userId}/spaces?order=asc`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((x: any) => [x.space.title, x.permission])).toEqual([
      ['Open', 'read'],
      ['Edited', 'edit'],
    ]);
    const desc = await s.api('GET', `/v1/orgs/${org}/members/${reader.userId}/spaces`);
    expect(desc.body.items.map((x: any) => x.space.id)).toEqual([edited.id, open.id]);
    // The admin reaches all three; the counts on Member follow.
    expect((await s.api('GET', `/v1/orgs/${org}/members/${reader.userId}`)).body.spaces).toBe(2);
    const me = (await s.api('GET', '/v1/user')).body.id;
    expect((await s.api('GET', `/v1/orgs/${org}/members/${me}`)).body.spaces).toBeGreaterThanOrEqual(3);
    // Deleting a space removes it from the list and the count.
    expect((await s.api('DELETE', `/v1/spaces/${open.id}`)).status).toBe(205);
    expect((await s.api('GET', `/v1/orgs/${org}/members/${reader.userId}`)).body.spaces).toBe(1);
  });

  it("does not show a reader spaces hidden from them through another member's list", async () => {
    const reader = await addUser(s.ctx, org, 'read');
    const hidden = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Admins only' } })).body;
    await s.api('PATCH', `/v1/spaces/${hidden.id}`, { body: { defaultLevel: null } });
    const me = (await s.api('GET', '/v1/user')).body.id;
    const seenByReader = await s.api('GET', `/v1/orgs/${org}/members/${me}/spaces?limit=1000`, { token: reader.token });
    expect(seenByReader.status).toBe(200);
    expect(seenByReader.body.items.map((x: any) => x.space.id)).not.toContain(hidden.id);
    const seenByAdmin = await s.api('GET', `/v1/orgs/${org}/members/${me}/spaces?limit=1000`);
    expect(seenByAdmin.body.items.map((x: any) => x.space.id)).toContain(hidden.id);
  });

  it('refuses guests listing other members (403) and non-members (404)', async () => {
    const guest = await addUser(s.ctx, org, null);
    const stranger = await addUser(s.ctx);
    const me = (await s.api('GET', '/v1/user')).body.id;
    expect((await s.api('GET', `/v1/orgs/${org}/members/${me}/spaces`, { token: guest.token })).status).toBe(403);
    expect((await s.api('GET', `/v1/orgs/${org}/members/${me}/spaces`, { token: stranger.token })).status).toBe(404);
  });
});
