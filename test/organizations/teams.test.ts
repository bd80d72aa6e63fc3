import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { addPerson, newOrg, outsider } from './people.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

const team = (org: string, id = '') => `/v1/orgs/${org}/teams${id ? '/' + id : ''}`;

describe('teams', () => {
  it('creates with PUT (201), lists with owner and title filters, gets, renames, deletes', async () => {
    const org = await newOrg(s);
    const ann = await addPerson(s, org, 'edit');
    const bob = await addPerson(s, org, 'create');
    const created = await s.api('PUT', team(org), { body: { title: 'Writers', members: [ann.id, ann.email] } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'team', title: 'Writers', members: 1, spaces: 0, permissions: { admin: true, view: true } });
    const t = created.body.id;
    // A non-admin creator owns what they create.
    const bobs = (await s.api('PUT', team(org), { token: bob.token, body: { title: 'Bob squad' } })).body;
    expect(bobs.members).toBe(1);

    const list = await s.api('GET', team(org));
    expect(list.body.items.map((x: any) => x.title)).toEqual(['Bob squad', 'Writers']);
    expect((await s.api('GET', team(org) + '?title=wRiT')).body.items.map((x: any) => x.id)).toEqual([t]);
    expect((await s.api('GET', team(org) + `?owner=${bob.id}`)).body.items.map((x: any) => x.id)).toEqual([bobs.id]);
    expect((await s.api('GET', team(org) + `?owner=${ann.id}`)).body.items).toEqual([]);
    const me = (await s.api('GET', '/v1/user')).body.id;
    expect((await s.api('GET', team(org) + `?owner=${me}`)).body.count).toBe(2); // admins manage every team

    const got = await s.api('GET', team(org, t));
    expect(got.body).toEqual(created.body);
    const renamed = await s.api('PATCH', team(org, t), { body: { title: 'Authors' } });
    expect(renamed.body.title).toBe('Authors');
    expect((await s.api('DELETE', team(org, t))).status).toBe(205);
    expect((await s.api('DELETE', team(org, t))).status).toBe(204);
    expect((await s.api('GET', team(org, t))).status).toBe(404);
    expect((await s.api('GET', `/v1/orgs/${org}/members/${ann.id}`)).body.teams).toBe(0);
  });

  it('enforces title limits, unique titles and known members (400/409), creating nothing', async () => {
    const org = await newOrg(s);
    const outside = await outsider(s);
    await s.api('PUT', team(org), { body: { title: 'Core' } });
    const cases: [object, number, string][] = [
      [{ title: '' }, 400, 'body.title: must NOT have fewer than 1 characters'],
      [{ title: 'x'.repeat(65) }, 400, 'body.title: must NOT have more than 64 characters'],
      [{ title: '   ' }, 400, 'title: must not be blank'],
      [{}, 400, 'body.title: is required'],
      [{ title: 'CORE' }, 409, 'title: a team named "Core" already exists in this organization'],
      [{ title: 'New', members: ['nobody'] }, 400, 'members[0]: nobody is not a member of this organization'],
      [{ title: 'New', members: [outside.id] }, 400, `members[0]: ${outside.id} is not a member of this organization`],
    ];
    for (const [body, status, message] of cases) {
      const r = await s.api('PUT', team(org), { body });
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.error.message).toContain(message);
    }
    expect((await s.api('GET', team(org))).body.count).toBe(1);
    expect((await s.api('PATCH', team(org, 'nope'), { body: { title: 'X' } })).status).toBe(404);
    // Renames follow the same rules.
    const other = (await s.api('PUT', team(org), { body: { title: 'Other' } })).body.id;
    const renames: [object, number, string][] = [
      [{ title: '' }, 400, 'body.title: must NOT have fewer than 1 characters'],
      [{ title: 'y'.repeat(65) }, 400, 'body.title: must NOT have more than 64 characters'],
      [{}, 400, 'body.title: is required'],
      [{ title: ' core ' }, 409, 'title: a team named "Core" already exists in this organization'],
    ];
    for (const [body, status, message] of renames) {
      const r = await s.api('PATCH', team(org, other), { body });
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.error.message).toContain(message);
    }
    expect((await s.api('GET', team(org, other))).body.title).toBe('Other');
  });

  it('rights: create+ make teams; owners manage theirs; only admins manage teams they do not own; guests see only their teams', async () => {
    const org = await newOrg(s);
    const editor = await addPerson(s, org, 'edit');
    const creator = await addPerson(s, org, 'create');
    const guest = await addPerson(s, org, null);
    const noCreate = await s.api('PUT', team(org), { token: editor.token, body: { title: 'Nope' } });
    expect(noCreate.status).toBe(403);
    expect(noCreate.body.error.message).toBe('creating a team needs the create role in this organization (you have edit)');

    const adminTeam = (await s.api('PUT', team(org), { body: { title: 'Admins own', members: [guest.id] } })).body;
    const own = (await s.api('PUT', team(org), { token: creator.token, body: { title: 'Creators' } })).body;
    // The creator manages their team, not the admin's.
    expect((await s.api('PATCH', team(org, own.id), { token: creator.token, body: { title: 'Creators 2' } })).status).toBe(200);
    const foreign = await s.api('PATCH', team(org, adminTeam.id), { token: creator.token, body: { title: 'Taken over' } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.message).toBe(
      `renaming a team needs the admin role in this organization or ownership of team ${adminTeam.id} (you have create, not an owner)`,
    );
    expect((await s.api('DELETE', team(org, adminTeam.id), { token: creator.token })).status).toBe(403);
    expect((await s.api('GET', team(org, adminTeam.id), { token: creator.token })).body.permissions).toEqual({ admin: false, view: true });
    expect((await s.api('GET', team(org, own.id), { token: creator.token })).body.permissions).toEqual({ admin: true, view: true });

    // Guests: no list; they see the team they are in, not the others.
    expect((await s.api('GET', team(org), { token: guest.token })).status).toBe(403);
    expect((await s.api('GET', team(org, adminTeam.id), { token: guest.token })).body.permissions).toEqual({ admin: false, view: true });
    const hidden = await s.api('GET', team(org, own.id), { token: guest.token });
    expect(hidden.status).toBe(403);
    // An admin made the guest an owner: now the guest manages that team.
    await s.api('PUT', `${team(org, adminTeam.id)}/members/${guest.id}`, { body: { role: 'owner' } });
    expect((await s.api('PATCH', team(org, adminTeam.id), { token: guest.token, body: { title: 'Guests rule' } })).status).toBe(200);
    const stranger = await outsider(s);
    expect((await s.api('GET', team(org), { token: stranger.token })).status).toBe(404);
  });
});

describe('team membership', () => {
  it('batch update: add (ids or emails), remove, memberships; counts follow', async () => {
    const org = await newOrg(s);
    const a = await addPerson(s, org, 'read', 'alice');
    const b = await addPerson(s, org, 'read', 'bruno');
    const c = await addPerson(s, org, 'read', 'carla');
    const t = (await s.api('PUT', team(org), { body: { title: 'Batch' } })).body.id;
    const members = `${team(org, t)}/members`;
    expect((await s.api('PUT', members, { body: { add: [a.id, b.email] } })).status).toBe(204);
    expect((await s.api('GET', team(org, t))).body.members).toBe(2);
    const list = await s.api('GET', members);
    expect(list.body.items.map((x: any) => [x.organization.id, x.team.role, x.permissions.view])).toEqual([
      [a.id, 'member', true],
      [b.id, 'member', true],
    ]);
    await s.api('PUT', members, { body: { remove: [a.email], add: [c.id], memberships: { [b.id]: { role: 'owner' } } } });
    const after = await s.api('GET', members);
    expect(after.body.items.map((x: any) => [x.organization.id, x.team.role])).toEqual([
      [b.id, 'owner'],
      [c.id, 'member'],
    ]);
    expect((await s.api('GET', `/v1/orgs/${org}/members/${a.id}`)).body.teams).toBe(0);
    expect((await s.api('GET', `/v1/orgs/${org}/members/${b.id}`)).body.teams).toBe(1);
    // b now owns it and manages it.
    expect((await s.api('PUT', members, { token: b.token, body: { remove: [c.id] } })).status).toBe(204);
    expect((await s.api('GET', team(org, t))).body.members).toBe(1);
    // b's organization permissions now say so.
    expect((await s.api('GET', `/v1/orgs/${org}`, { token: b.token })).body.permissions.ownTeam).toBe(true);
    expect((await s.api('GET', `/v1/orgs/${org}`, { token: a.token })).body.permissions.ownTeam).toBe(false);
  });

  it('refuses bad batches whole (400 naming the field), and non-owners (403)', async () => {
    const org = await newOrg(s);
    const a = await addPerson(s, org, 'read');
    const t = (await s.api('PUT', team(org), { body: { title: 'Strict', members: [a.id] } })).body.id;
    const members = `${team(org, t)}/members`;
    const cases: [object, string][] = [
      [{}, 'body: nothing to change (give add, remove or memberships)'],
      [{ add: ['nobody@example.com'] }, 'add[0]: nobody@example.com is not a member of this organization'],
      [{ add: [a.id], remove: [a.id] }, `add[0]: ${a.id} is also in remove`],
      [{ memberships: { nobody: { role: 'owner' } } }, 'memberships.nobody: not a member of team'],
      [{ memberships: { [a.id]: { role: 'boss' } } }, 'must be one of "owner", "member"'],
    ];
    for (const [body, message] of cases) {
      const r = await s.api('PUT', members, { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toContain(message);
    }
    // A batch with a bad part changes nothing, not even its good parts.
    expect((await s.api('PUT', members, { body: { remove: [a.id], add: ['nobody'] } })).status).toBe(400);
    expect((await s.api('GET', team(org, t))).body.members).toBe(1);
    const r = await s.api('PUT', members, { token: a.token, body: { add: [a.id] } });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toContain('changing the members of a team needs the admin role in this organization or ownership of team');
  });

  it('adds and removes one member (204; delete 205 then 204)', async () => {
    const org = await newOrg(s);
    const a = await addPerson(s, org, 'read');
    const t = (await s.api('PUT', team(org), { body: { title: 'Single' } })).body.id;
    expect((await s.api('PUT', `${team(org, t)}/members/${a.id}`)).status).toBe(204);
    expect((await s.api('PUT', `${team(org, t)}/members/${a.id}`)).status).toBe(204); // again: no change
    expect((await s.api('GET', team(org, t))).body.members).toBe(1);
    expect((await s.api('GET', `/v1/orgs/${org}/members/${a.id}/teams`)).body.items[0].member.role).toBe('member');
    await s.api('PUT', `${team(org, t)}/members/${a.id}`, { body: { role: 'owner' } });
    expect((await s.api('GET', `/v1/orgs/${org}/members/${a.id}/teams`)).body.items[0].member.role).toBe('owner');
    expect((await s.api('PUT', `${team(org, t)}/members/nobody`)).status).toBe(404);
    expect((await s.api('DELETE', `${team(org, t)}/members/${a.id}`)).status).toBe(205);
    expect((await s.api('DELETE', `${team(org, t)}/members/${a.id}`)).status).toBe(204);
    expect((await s.api('GET', team(org, t))).body.members).toBe(0);
  });
});
