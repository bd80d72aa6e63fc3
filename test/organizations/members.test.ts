import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { addPerson, newOrg, outsider } from './people.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

const ids = (r: { body: { items: { id: string }[] } }) => r.body.items.map((m) => m.id);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('members: list, get, filters', () => {
  it('lists with role, search, sort and order filters; lastSeenAt lists only members seen', async () => {
    const org = await newOrg(s);
    const owner = (await s.api('GET', '/v1/user')).body.id;
    const ann = await addPerson(s, org, 'edit', 'ann');
    await sleep(5);
    const bob = await addPerson(s, org, 'read', 'bob');
    await sleep(5);
    const guest = await addPerson(s, org, null, 'gus');

    const all = await s.api('GET', `/v1/orgs/${org}/members`);
    expect(all.body.count).toBe(4);
    expect(ids(all)).toEqual([guest.id, bob.id, ann.id, owner]); // joinedAt desc by default
    expect(ids(await s.api('GET', `/v1/orgs/${org}/members?order=asc`))).toEqual([owner, ann.id, bob.id, guest.id]);
    expect(ids(await s.api('GET', `/v1/orgs/${org}/members?role=edit`))).toEqual([ann.id]);
    expect(ids(await s.api('GET', `/v1/orgs/${org}/members?role=guest`))).toEqual([guest.id]);
    expect(ids(await s.api('GET', `/v1/orgs/${org}/members?search=BOB@EXAMPLE`))).toEqual([bob.id]);
    expect(ids(await s.api('GET', `/v1/orgs/${org}/members?search=owner`))).toEqual([owner]); // display name "Owner"
    expect((await s.api('GET', `/v1/orgs/${org}/members?role=owner`)).status).toBe(400);

    // Nobody was seen yet; then bob, then ann ping.
    expect((await s.api('GET', `/v1/orgs/${org}/members?sort=lastSeenAt`)).body).toEqual({ items: [], count: 0 });
    expect((await s.api('POST', `/v1/orgs/${org}/ping`, { token: bob.token })).status).toBe(200);
    await sleep(5);
    expect((await s.api('POST', `/v1/orgs/${org}/ping`, { token: ann.token })).status).toBe(200);
    const seen = await s.api('GET', `/v1/orgs/${org}/members?sort=lastSeenAt`);
    expect(ids(seen)).toEqual([ann.id, bob.id]);
    expect(seen.body.items[0].lastSeenAt > seen.body.items[1].lastSeenAt).toBe(true);
    expect(ids(await s.api('GET', `/v1/orgs/${org}/members?sort=lastSeenAt&order=asc`))).toEqual([bob.id, ann.id]);

    const paged = await s.api('GET', `/v1/orgs/${org}/members?limit=3`);
    expect(paged.body.items).toHaveLength(3);
    expect(ids(await s.api('GET', `/v1/orgs/${org}/members?limit=3&page=${paged.body.next.page}`))).toEqual([owner]);
  });

  it('gets one member with counts; 404 for a non-member id', async () => {
    const org = await newOrg(s);
    const ann = await addPerson(s, org, 'comment');
    const m = await s.api('GET', `/v1/orgs/${org}/members/${ann.id}`);
    expect(m.body).toMatchObject({
      object: 'member',
      id: ann.id,
      role: 'comment',
      user: { id: ann.id, email: ann.email },
      disabled: false,
      sso: false,
      teams: 0,
      spaces: 0,
    });
    expect((await s.api('GET', `/v1/orgs/${org}/members/nobody`)).status).toBe(404);
  });

  it('members see members; guests see only themselves (403 naming the role)', async () => {
    const org = await newOrg(s);
    const reader = await addPerson(s, org, 'read');
    const guest = await addPerson(s, org, null);
    expect((await s.api('GET', `/v1/orgs/${org}/members`, { token: reader.token })).status).toBe(200);
    expect((await s.api('GET', `/v1/orgs/${org}/members/${guest.id}`, { token: reader.token })).status).toBe(200);
    const list = await s.api('GET', `/v1/orgs/${org}/members`, { token: guest.token });
    expect(list.status).toBe(403);
    expect(list.body.error.message).toBe('listing members needs the read role in this organization (you have guest)');
    expect((await s.api('GET', `/v1/orgs/${org}/members/${reader.id}`, { token: guest.token })).status).toBe(403);
    expect((await s.api('GET', `/v1/orgs/${org}/members/${guest.id}`, { token: guest.token })).body.role).toBeNull();
    const stranger = await outsider(s);
    expect((await s.api('GET', `/v1/orgs/${org}/members`, { token: stranger.token })).status).toBe(404);
  });
});

describe('members: role changes and removal', () => {
  it('admins change roles (null makes a guest); others get 403', async () => {
    const org = await newOrg(s);
    const ann = await addPerson(s, org, 'read');
    const bob = await addPerson(s, org, 'create');
    const up = await s.api('PATCH', `/v1/orgs/${org}/members/${ann.id}`, { body: { role: 'review' } });
    expect(up.status).toBe(200);
    expect(up.body.role).toBe('review');
    expect((await s.api('PATCH', `/v1/orgs/${org}/members/${ann.id}`, { body: { role: null } })).body.role).toBeNull();
    const refused = await s.api('PATCH', `/v1/orgs/${org}/members/${ann.id}`, { token: bob.token, body: { role: 'admin' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe("changing a member's role needs the admin role in this organization (you have create)");
    expect((await s.api('GET', `/v1/orgs/${org}/members/${ann.id}`)).body.role).toBeNull();
    expect((await s.api('PATCH', `/v1/orgs/${org}/members/${ann.id}`, { body: { role: 'boss' } })).status).toBe(400);
    expect((await s.api('PATCH', `/v1/orgs/${org}/members/${ann.id}`, { body: {} })).body.error.message).toBe(
      'role: is required (a role, or null for a guest)',
    );
    expect((await s.api('PATCH', `/v1/orgs/${org}/members/nobody`, { body: { role: 'read' } })).status).toBe(404);
  });

  it('never lets the last admin be demoted or removed', async () => {
    const org = await newOrg(s);
    const me = (await s.api('GET', '/v1/user')).body.id;
    const demote = await s.api('PATCH', `/v1/orgs/${org}/members/${me}`, { body: { role: 'edit' } });
    expect(demote.status).toBe(409);
    expect(demote.body.error.message).toBe(`userId: ${me} is the last admin of this organization and cannot be demoted; make another member admin first`);
    const remove = await s.api('DELETE', `/v1/orgs/${org}/members/${me}`);
    expect(remove.status).toBe(409);
    expect(remove.body.error.message).toContain('is the last admin of this organization and cannot be removed');
    // With a second admin, the first may step down.
    const other = await addPerson(s, org, 'admin');
    expect((await s.api('PATCH', `/v1/orgs/${org}/members/${me}`, { body: { role: 'edit' } })).body.role).toBe('edit');
    // Now `other` is the last admin.
    expect((await s.api('DELETE', `/v1/orgs/${org}/members/${other.id}`, { token: other.token })).status).toBe(409);
    expect((await s.api('PATCH', `/v1/orgs/${org}/members/${me}`, { token: other.token, body: { role: 'admin' } })).status).toBe(200);
  });

  it('removes members (205, then 204), drops their team memberships; members may leave; others get 403', async () => {
    const org = await newOrg(s);
    const ann = await addPerson(s, org, 'edit');
    const bob = await addPerson(s, org, 'edit');
    const team = (await s.api('PUT', `/v1/orgs/${org}/teams`, { body: { title: 'Writers', members: [ann.id, bob.id] } })).body;
    expect(team.members).toBe(2);
    expect((await s.api('GET', `/v1/orgs/${org}/members/${ann.id}`)).body.teams).toBe(1);
    const refused = await s.api('DELETE', `/v1/orgs/${org}/members/${ann.id}`, { token: bob.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('removing a member needs the admin role in this organization (you have edit)');
    expect((await s.api('DELETE', `/v1/orgs/${org}/members/${ann.id}`)).status).toBe(205);
    expect((await s.api('DELETE', `/v1/orgs/${org}/members/${ann.id}`)).status).toBe(204);
    expect((await s.api('GET', `/v1/orgs/${org}/members/${ann.id}`)).status).toBe(404);
    expect((await s.api('GET', `/v1/orgs/${org}`, { token: ann.token })).status).toBe(404);
    expect((await s.api('GET', `/v1/orgs/${org}/teams/${team.id}`)).body.members).toBe(1);
    // bob leaves on his own.
    expect((await s.api('DELETE', `/v1/orgs/${org}/members/${bob.id}`, { token: bob.token })).status).toBe(205);
    expect((await s.api('GET', `/v1/orgs/${org}/teams/${team.id}`)).body.members).toBe(0);
  });
});

describe('ping (updateOrganizationMemberLastSeenAt)', () => {
  it('sets lastSeenAt and returns a JWT that verifies with the served JWKS', async () => {
    const org = await newOrg(s);
    const ann = await addPerson(s, org, 'review');
    expect((await s.api('GET', `/v1/orgs/${org}/members/${ann.id}`)).body.lastSeenAt).toBeUndefined();
    const r = await s.api('POST', `/v1/orgs/${org}/ping`, { token: ann.token });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['gitbookVisitorClaims']);
    const seen = (await s.api('GET', `/v1/orgs/${org}/members/${ann.id}`)).body.lastSeenAt;
    expect(Date.now() - Date.parse(seen)).toBeLessThan(5000);

    const res = await fetch(`${s.url}/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    const jwks = await res.json();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(jwks.keys[0].d).toBeUndefined(); // never the private part
    const { payload, protectedHeader } = await jwtVerify(r.body.gitbookVisitorClaims, createLocalJWKSet(jwks), { issuer: s.url });
    expect(protectedHeader.kid).toBe(jwks.keys[0].kid);
    expect(payload).toMatchObject({ sub: ann.id, organization: org, role: 'review', email: ann.email });
    expect(payload.exp! - payload.iat!).toBe(3600);

    // The same key signs every token; a tampered token fails.
    const again = (await s.api('POST', `/v1/orgs/${org}/ping`)).body.gitbookVisitorClaims;
    await expect(jwtVerify(again, createLocalJWKSet(jwks))).resolves.toBeTruthy();
    const [h, p, sig] = again.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), role: 'admin', sub: ann.id })).toString('base64url');
    await expect(jwtVerify(`${h}.${forged}.${sig}`, createLocalJWKSet(jwks))).rejects.toThrow();
    expect((await fetch(`${s.url}/.well-known/jwks.json`, { method: 'POST' })).status).toBe(405);
  });

  it('is for members only', async () => {
    const org = await newOrg(s);
    const stranger = await outsider(s);
    expect((await s.api('POST', `/v1/orgs/${org}/ping`, { token: stranger.token })).status).toBe(404);
  });
});

describe('SSO members (setUserAsSSOMemberForOrganization)', () => {
  it('marks a member, refuses a non-member (they accept an invitation first) and members of another org', async () => {
    const org = await newOrg(s);
    const ann = await addPerson(s, org, 'edit');
    const m = await s.api('POST', `/v1/orgs/${org}/members/${ann.id}/sso`);
    expect(m.status).toBe(200);
    expect(m.body).toMatchObject({ id: ann.id, sso: true, role: 'edit' });

    // Nobody is made a member without their consent: a non-member is refused, nothing changes.
    const newcomer = await outsider(s);
    const refusedOutsider = await s.api('POST', `/v1/orgs/${org}/members/${newcomer.id}/sso`);
    expect(refusedOutsider.status).toBe(403);
    expect(refusedOutsider.body.error.message).toContain(`setting user ${newcomer.id} as SSO member is refused: they are not a member of this organization`);
    expect((await s.api('GET', `/v1/orgs/${org}`, { token: newcomer.token })).status).toBe(404);
    // Invited with sso, they accept and are an SSO member with the default role.
    await s.api('POST', `/v1/orgs/${org}/invites`, { body: { emails: [newcomer.email], sso: true } });
    const [invitation] = (await s.docs('GET', '/_docs/invitations', { token: newcomer.token })).body.items;
    await s.docs('POST', `/_docs/invitations/${invitation.id}/accept`, { token: newcomer.token });
    expect((await s.api('GET', `/v1/orgs/${org}/members/${newcomer.id}`)).body).toMatchObject({ id: newcomer.id, sso: true, role: 'read' });

    // The owner is in several organizations: an SSO identity belongs to one.
    const me = (await s.api('GET', '/v1/user')).body.id;
    const refused = await s.api('POST', `/v1/orgs/${org}/members/${me}/sso`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('is a member of another organization');
    expect((await s.api('POST', `/v1/orgs/${org}/members/nobody/sso`)).status).toBe(404);
    const notAdmin = await s.api('POST', `/v1/orgs/${org}/members/${ann.id}/sso`, { token: ann.token });
    expect(notAdmin.status).toBe(403);
  });
});

describe("a member's teams (listTeamsForOrganizationMember)", () => {
  it('lists {team, member: {role}} with a case-insensitive title filter', async () => {
    const org = await newOrg(s);
    const ann = await addPerson(s, org, 'create');
    const mine = (await s.api('PUT', `/v1/orgs/${org}/teams`, { token: ann.token, body: { title: 'Platform' } })).body;
    const other = (await s.api('PUT', `/v1/orgs/${org}/teams`, { body: { title: 'Design', members: [ann.id] } })).body;
    await s.api('PUT', `/v1/orgs/${org}/teams`, { body: { title: 'Unrelated' } });
    const r = await s.api('GET', `/v1/orgs/${org}/members/${ann.id}/teams`);
    expect(r.body.count).toBe(2);
    expect(r.body.items.map((x: any) => [x.team.id, x.member.role])).toEqual([
      [other.id, 'member'],
      [mine.id, 'owner'],
    ]);
    expect((await s.api('GET', `/v1/orgs/${org}/members/${ann.id}/teams?title=PLAT`)).body.items.map((x: any) => x.team.title)).toEqual(['Platform']);
    expect((await s.api('GET', `/v1/orgs/${org}/members/${ann.id}`)).body.teams).toBe(2);
    expect((await s.api('GET', `/v1/orgs/${org}/members/nobody/teams`)).status).toBe(404);
  });
});
