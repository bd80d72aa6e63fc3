import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, toolText } from '../helpers/mcp.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Permissions on spaces, collections and sites (docs/manual/permissions.md), over HTTP: every answer is
// checked against both specs by s.api. A grant takes effect on the next call wherever access is
// decided (the space itself, lists, the organization's search, the member's spaces) and ends with
// its removal; bad grants are refused and change nothing.

let s: TestServer;
let org: string;
const ids: Record<string, string> = {};

const as = (token: string) => ({
  get: (path: string) => s.api('GET', path, { token }),
  call: (method: string, path: string, body?: unknown) => s.api(method, path, { token, body }),
});

async function snapshot(path: string) {
  const [users, teams, all] = await Promise.all([s.api('GET', `${path}/users`), s.api('GET', `${path}/teams`), s.api('GET', `${path}/aggregate`)]);
  return { users: users.body, teams: teams.body, all: all.body };
}

describe('permissions', () => {
  beforeAll(async () => {
    s = await startServer();
    org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
    const post = async (path: string, body: unknown) => (await s.api('POST', path, { body })).body.id as string;
    ids.collection = await post(`/v1/orgs/${org}/collections`, { title: 'Handbook' });
    ids.inCollection = await post(`/v1/orgs/${org}/spaces`, { title: 'Onboarding', parent: ids.collection });
    ids.shared = await post(`/v1/orgs/${org}/spaces`, { title: 'Shared space' });
    ids.other = await post(`/v1/orgs/${org}/spaces`, { title: 'Other space' });
    ids.team = (await s.api('PUT', `/v1/orgs/${org}/teams`, { body: { title: 'Writers' } })).body.id;
    ids.site = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Docs', spaces: [ids.shared] } })).body.id;
  });
  afterAll(() => s?.stop());

  it('remove*From* takes a grant away: 205 when there was one (access ends at once), 204 when none; only an admin of the item', async () => {
    const guest = await addUser(s.ctx, org, null);
    const reader = await addUser(s.ctx, org, 'read');
    const cases: [string, string][] = [
      [`/v1/spaces/${ids.other}/permissions`, `/v1/spaces/${ids.other}`],
      [`/v1/collections/${ids.collection}/permissions`, `/v1/collections/${ids.collection}`],
      [`/v1/orgs/${org}/sites/${ids.site}/permissions`, `/v1/orgs/${org}/sites/${ids.site}`],
    ];
    for (const [perms, item] of cases) {
      expect((await s.api('PATCH', `${perms}/users/${guest.userId}`, { body: { role: 'read' } })).status, perms).toBe(204);
      expect((await s.api('GET', item, { token: guest.token })).status, item).toBe(200);
      // A member who may not administer the item: refused, the grant stays.
      expect([403, 404]).toContain((await s.api('DELETE', `${perms}/users/${guest.userId}`, { token: reader.token })).status);
      expect((await s.api('GET', item, { token: guest.token })).status).toBe(200);
      expect((await s.api('DELETE', `${perms}/users/${guest.userId}`)).status).toBe(205);
      expect([403, 404]).toContain((await s.api('GET', item, { token: guest.token })).status);
      expect((await s.api('DELETE', `${perms}/users/${guest.userId}`)).status).toBe(204);
      expect((await s.api('PATCH', `${perms}/teams/${ids.team}`, { body: { role: 'read' } })).status).toBe(204);
      expect((await s.api('DELETE', `${perms}/teams/${ids.team}`)).status).toBe(205);
      expect((await s.api('GET', `${perms}/teams`)).body.items).toEqual([]);
    }
  });

  it('a guest given edit on one space edits that space and nothing else; removing the grant ends it at once', async () => {
    const guest = await addUser(s.ctx, org, null);
    const g = as(guest.token);
    expect((await g.get(`/v1/spaces/${ids.shared}`)).status).toBe(404);
    expect((await s.api('POST', `/v1/spaces/${ids.shared}/permissions`, { body: { role: 'edit', users: [guest.userId] } })).status).toBe(204);

    const seen = await g.get(`/v1/spaces/${ids.shared}`);
    expect(seen.status).toBe(200);
    expect(seen.body.permissions).toMatchObject({ view: true, edit: true, admin: false, merge: false });
    expect((await g.call('POST', `/v1/spaces/${ids.shared}/change-requests`, { subject: 'By the guest' })).status).toBe(201);
    // Edit is not admin: the space's settings stay closed.
    expect((await g.call('PATCH', `/v1/spaces/${ids.shared}`, { title: 'Renamed' })).status).toBe(403);
    // Nothing else: the other spaces, the collection, its space.
    for (const id of [ids.other, ids.inCollection]) expect((await g.get(`/v1/spaces/${id}`)).status).toBe(404);
    expect((await g.get(`/v1/collections/${ids.collection}`)).status).toBe(404);
    expect((await g.get(`/v1/orgs/${org}/spaces`)).body.items.map((x: any) => x.id)).toEqual([ids.shared]);
    const mine = await s.api('GET', `/v1/orgs/${org}/members/${guest.userId}`);
    expect(mine.body.spaces).toBe(1);

    const aggregate = await s.api('GET', `/v1/spaces/${ids.shared}/permissions/aggregate`);
    expect(aggregate.body.items.find((x: any) => x.user.id === guest.userId)).toMatchObject({ permission: 'edit' });
    expect((await s.api('GET', `/v1/spaces/${ids.shared}/permissions/aggregate?role=edit`)).body.items.map((x: any) => x.user.id)).toEqual([guest.userId]);
    expect((await s.api('GET', `/v1/spaces/${ids.shared}/permissions/users`)).body.items).toEqual([
      { permission: 'edit', user: expect.objectContaining({ id: guest.userId }) },
    ]);

    expect((await s.api('PATCH', `/v1/spaces/${ids.shared}/permissions/users/${guest.userId}`, { body: { role: null } })).status).toBe(204);
    expect((await g.get(`/v1/spaces/${ids.shared}`)).status).toBe(404);
    expect((await g.call('POST', `/v1/spaces/${ids.shared}/change-requests`, { subject: 'Too late' })).status).toBe(404);
    expect((await s.api('GET', `/v1/spaces/${ids.shared}/permissions/users`)).body.items).toEqual([]);
  });

  it('a grant raises a member above their organization role on that item only, never lowers it', async () => {
    const reader = await addUser(s.ctx, org, 'read');
    const r = as(reader.token);
    await s.api('PATCH', `/v1/spaces/${ids.other}/permissions/users/${reader.userId}`, { body: { role: 'admin' } });
    expect((await r.call('PATCH', `/v1/spaces/${ids.other}`, { title: 'Other space, renamed' })).status).toBe(200);
    expect((await r.call('PATCH', `/v1/spaces/${ids.shared}`, { title: 'Nope' })).status).toBe(403);
    expect((await r.get(`/v1/spaces/${ids.shared}`)).body.permissions.edit).toBe(false);
    // A grant below the organization role changes nothing: an editor given read still edits.
    const editor = await addUser(s.ctx, org, 'edit');
    await s.api('POST', `/v1/spaces/${ids.shared}/permissions`, { body: { role: 'read', users: [editor.userId] } });
    expect((await as(editor.token).get(`/v1/spaces/${ids.shared}`)).body.permissions.edit).toBe(true);
    await s.api('PATCH', `/v1/spaces/${ids.other}/permissions/users/${reader.userId}`, { body: {} });
    expect((await r.call('PATCH', `/v1/spaces/${ids.other}`, { title: 'Back' })).status).toBe(403);
  });

  it('a collection grant applies to every space in it (inherited), and shows in the aggregate of the space', async () => {
    const guest = await addUser(s.ctx, org, null);
    await s.api('POST', `/v1/collections/${ids.collection}/permissions`, { body: { role: 'comment', users: [guest.userId] } });
    const g = as(guest.token);
    expect((await g.get(`/v1/collections/${ids.collection}`)).status).toBe(200);
    const space = await g.get(`/v1/spaces/${ids.inCollection}`);
    expect(space.body.permissions).toMatchObject({ view: true, comment: true, edit: false });
    expect((await g.get(`/v1/spaces/${ids.shared}`)).status).toBe(404);
    expect(
      (await s.api('GET', `/v1/spaces/${ids.inCollection}/permissions/aggregate`)).body.items.find((x: any) => x.user.id === guest.userId).permission,
    ).toBe('comment');
    expect((await s.api('GET', `/v1/collections/${ids.collection}/permissions/users`)).body.items.map((x: any) => [x.user.id, x.permission])).toEqual([
      [guest.userId, 'comment'],
    ]);
    // Search follows: the organization's search reaches the collection's space only.
    for (const space of [ids.inCollection, ids.shared]) {
      const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Zebra' } })).body.id;
      await s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, {
        body: { changes: [{ operation: 'insert_page', title: `Zebras of ${space}`, document: { markdown: 'Zebras graze.' } }] },
      });
      expect((await s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`)).status).toBeLessThan(300);
    }
    expect((await s.api('GET', `/v1/orgs/${org}/search?query=zebras`)).body.items.map((x: any) => x.id).sort()).toEqual([ids.inCollection, ids.shared].sort());
    expect((await g.get(`/v1/orgs/${org}/search?query=zebras`)).body.items.map((x: any) => x.id)).toEqual([ids.inCollection]);
    await s.api('PATCH', `/v1/collections/${ids.collection}/permissions/users/${guest.userId}`, { body: { role: null } });
    expect((await g.get(`/v1/spaces/${ids.inCollection}`)).status).toBe(404);
  });

  it("a team grant applies to the team's members, and ends for one who leaves the team", async () => {
    const member = await addUser(s.ctx, org, null);
    await s.api('PUT', `/v1/orgs/${org}/teams/${ids.team}/members/${member.userId}`, { body: {} });
    await s.api('POST', `/v1/spaces/${ids.other}/permissions`, { body: { role: 'review', teams: [ids.team] } });
    const m = as(member.token);
    expect((await m.get(`/v1/spaces/${ids.other}`)).body.permissions).toMatchObject({ review: true, admin: false });
    const teams = await s.api('GET', `/v1/spaces/${ids.other}/permissions/teams`);
    expect(teams.body.items).toEqual([{ permission: 'review', team: expect.objectContaining({ id: ids.team, spaces: 1 }) }]);
    await s.api('DELETE', `/v1/orgs/${org}/teams/${ids.team}/members/${member.userId}`);
    expect((await m.get(`/v1/spaces/${ids.other}`)).status).toBe(404);
    await s.api('PATCH', `/v1/spaces/${ids.other}/permissions/teams/${ids.team}`, { body: { role: null } });
    expect((await s.api('GET', `/v1/spaces/${ids.other}/permissions/teams`)).body.items).toEqual([]);
  });

  it('a site grant gives that site to a guest, with its origin in the aggregate', async () => {
    const guest = await addUser(s.ctx, org, null);
    const g = as(guest.token);
    const site = `/v1/orgs/${org}/sites/${ids.site}`;
    expect((await g.get(site)).status).toBe(403);
    await s.api('POST', `${site}/permissions`, { body: { role: 'admin', users: [guest.userId] } });
    expect((await g.get(site)).body.permissions).toMatchObject({ view: true, admin: true });
    expect((await g.get(`/v1/orgs/${org}/sites`)).body.items.map((x: any) => x.id)).toEqual([ids.site]);
    expect((await g.call('PATCH', site, { title: 'Docs by the guest' })).status).toBe(200);
    const all = await s.api('GET', `${site}/permissions/aggregate`);
    expect(all.body.items.find((x: any) => x.user.id === guest.userId)).toMatchObject({
      permission: 'admin',
      origin: { type: 'site', site: ids.site, reason: 'member' },
      disabled: false,
    });
    expect(all.body.items.find((x: any) => x.permission === 'admin' && x.origin.type === 'organization')).toBeTruthy();
    expect((await s.api('GET', `${site}/permissions/users`)).body.items).toEqual([
      { permission: 'admin', user: expect.objectContaining({ id: guest.userId }) },
    ]);
    await s.api('PATCH', `${site}/permissions/users/${guest.userId}`, { body: {} });
    expect((await g.call('PATCH', site, { title: 'Again' })).status).toBe(403);
  });

  it("the app's view of a space (urls.app) opens for a guest with a grant and closes when it is removed", async () => {
    const guest = await addUser(s.ctx, org, null);
    const login = await fetch(`${s.url}/o/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: s.url },
      body: new URLSearchParams({ token: guest.token, next: '/o' }),
    });
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const url = (await s.api('GET', `/v1/spaces/${ids.inCollection}`)).body.urls.app as string;
    const view = () => fetch(url, { headers: { cookie }, redirect: 'manual' }).then((r) => r.status);
    const closed = await view();
    expect(closed).not.toBe(200);
    await s.api('POST', `/v1/collections/${ids.collection}/permissions`, { body: { role: 'read', users: [guest.userId] } });
    expect(await view()).toBe(200);
    await s.api('PATCH', `/v1/collections/${ids.collection}/permissions/users/${guest.userId}`, { body: { role: null } });
    expect(await view()).toBe(closed);
  });

  it('grants stay behind when a space moves to another organization, and do not come back with it', async () => {
    const guest = await addUser(s.ctx, org, null);
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Travelling' } })).body.id;
    await s.api('POST', `/v1/spaces/${space}/permissions`, { body: { role: 'edit', users: [guest.userId] } });
    const elsewhere = (await s.api('POST', '/v1/orgs', { body: { title: 'Destination' } })).body.id;
    expect((await s.api('POST', `/v1/spaces/${space}/transfer`, { body: { organization: elsewhere } })).status).toBe(200);
    expect((await s.api('GET', `/v1/spaces/${space}/permissions/users`)).body.items).toEqual([]);
    expect((await s.api('POST', `/v1/spaces/${space}/transfer`, { body: { organization: org } })).status).toBe(200);
    expect((await s.api('GET', `/v1/spaces/${space}/permissions/users`)).body.items).toEqual([]);
    expect((await as(guest.token).get(`/v1/spaces/${space}`)).status).toBe(404);
  });

  it('over MCP: the tools give, show and remove a grant; the guest then reaches the space through MCP too; a grant above the level is refused', {
    timeout: 60_000,
  }, async () => {
    const guest = await addUser(s.ctx, org, null);
    const owner = await connectMcp(s.url, s.token);
    const mine = await connectMcp(s.url, guest.token);
    try {
      const before = await mine.callTool({ name: 'getSpaceById', arguments: { spaceId: ids.other } });
      expect(before.isError).toBe(true);
      const given = await owner.callTool({ name: 'inviteToSpace', arguments: { spaceId: ids.other, body: { role: 'read', users: [guest.userId] } } });
      expect(given.isError, toolText(given)).toBeFalsy();
      const seen = await mine.callTool({ name: 'getSpaceById', arguments: { spaceId: ids.other } });
      expect(seen.isError, toolText(seen)).toBeFalsy();
      expect(JSON.parse(toolText(seen)).permissions).toMatchObject({ view: true, edit: false });
      const listed = await owner.callTool({ name: 'listUserPermissionsInSpace', arguments: { spaceId: ids.other } });
      expect(JSON.parse(toolText(listed)).items.map((x: any) => [x.user.id, x.permission])).toEqual([[guest.userId, 'read']]);
      // The guest reads only: giving anything is refused, and nothing changed.
      const above = await mine.callTool({ name: 'inviteToSpace', arguments: { spaceId: ids.other, body: { role: 'edit', users: [guest.userId] } } });
      expect(above.isError).toBe(true);
      expect(toolText(above)).toMatch(/403|above your own level/);
      expect(
        JSON.parse(toolText(await owner.callTool({ name: 'listUserPermissionsInSpace', arguments: { spaceId: ids.other } }))).items.map(
          (x: any) => x.permission,
        ),
      ).toEqual(['read']);
      await owner.callTool({ name: 'updateUserPermissionInSpace', arguments: { spaceId: ids.other, userId: guest.userId, role: null } });
      expect((await mine.callTool({ name: 'getSpaceById', arguments: { spaceId: ids.other } })).isError).toBe(true);
    } finally {
      await owner.close();
      await mine.close();
    }
  });

  describe('bad grants are refused and change nothing', () => {
    it("above the granter's own level: 403", async () => {
      // An editor of the space (by a grant) may not give admin, nor anything (not an admin there).
      const editor = await addUser(s.ctx, org, 'read');
      const other = await addUser(s.ctx, org, 'read');
      await s.api('POST', `/v1/spaces/${ids.shared}/permissions`, { body: { role: 'edit', users: [editor.userId] } });
      const before = await snapshot(`/v1/spaces/${ids.shared}/permissions`);
      const e = as(editor.token);
      const above = await e.call('POST', `/v1/spaces/${ids.shared}/permissions`, { role: 'admin', users: [other.userId] });
      expect(above.status).toBe(403);
      expect(above.body.error.message).toMatch(/giving the admin role on space \w+ is above your own level there \(you have edit\)/);
      const self = await e.call('PATCH', `/v1/spaces/${ids.shared}/permissions/users/${editor.userId}`, { role: 'admin' });
      expect(self.status).toBe(403);
      const below = await e.call('POST', `/v1/spaces/${ids.shared}/permissions`, { role: 'read', users: [other.userId] });
      expect([below.status, below.body.error.message]).toEqual([403, expect.stringMatching(/needs the admin level/)]);
      // A site: a reader of the organization cannot hand out the site.
      const onSite = await e.call('POST', `/v1/orgs/${org}/sites/${ids.site}/permissions`, { role: 'admin', users: [other.userId] });
      expect(onSite.status).toBe(403);
      expect(await snapshot(`/v1/spaces/${ids.shared}/permissions`)).toEqual(before);
      expect((await s.api('GET', `/v1/orgs/${org}/sites/${ids.site}/permissions/users`)).body.items).toEqual([]);
    });

    it('a user or a team of another organization: 400 in a body, 404 in a path, naming it', async () => {
      const stranger = await addUser(s.ctx);
      const elsewhere = (await s.api('POST', '/v1/orgs', { body: { title: 'Elsewhere' } })).body.id;
      const foreignTeam = (await s.api('PUT', `/v1/orgs/${elsewhere}/teams`, { body: { title: 'Foreign' } })).body.id;
      const known = await addUser(s.ctx, org, null);
      const targets = [
        `/v1/spaces/${ids.shared}/permissions`,
        `/v1/collections/${ids.collection}/permissions`,
        `/v1/orgs/${org}/sites/${ids.site}/permissions`,
      ];
      for (const path of targets) {
        const before = await snapshot(path);
        // The good id first: nothing of a refused body is written.
        const user = await s.api('POST', path, { body: { role: 'read', users: [known.userId, stranger.userId] } });
        expect([user.status, user.body.error.message]).toEqual([400, `users: user ${stranger.userId} is not a member of organization ${org}`]);
        const team = await s.api('POST', path, { body: { role: 'read', users: [known.userId], teams: [foreignTeam] } });
        expect([team.status, team.body.error.message]).toEqual([400, `teams: team ${foreignTeam} is not a team of organization ${org}`]);
        const byPath = await s.api('PATCH', `${path}/users/${stranger.userId}`, { body: { role: 'read' } });
        expect([byPath.status, byPath.body.error.message]).toEqual([404, `user ${stranger.userId} is not a member of organization ${org}`]);
        const teamPath = await s.api('PATCH', `${path}/teams/${foreignTeam}`, { body: { role: 'read' } });
        expect([teamPath.status, teamPath.body.error.message]).toEqual([404, `team ${foreignTeam} is not a team of organization ${org}`]);
        expect(await snapshot(path)).toEqual(before);
      }
    });

    it('outsiders and members who cannot see the item get 404, and nothing changes', async () => {
      const outsider = await addUser(s.ctx);
      const guest = await addUser(s.ctx, org, null);
      const before = await snapshot(`/v1/spaces/${ids.other}/permissions`);
      for (const who of [outsider, guest]) {
        const r = await s.api('POST', `/v1/spaces/${ids.other}/permissions`, { token: who.token, body: { role: 'read', users: [who.userId] } });
        expect(r.status).toBe(404);
        expect((await s.api('GET', `/v1/spaces/${ids.other}/permissions/users`, { token: who.token })).status).toBe(404);
      }
      expect(await snapshot(`/v1/spaces/${ids.other}/permissions`)).toEqual(before);
    });
  });
});
