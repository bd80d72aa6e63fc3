import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { addPerson, newOrg, outsider } from './people.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

describe('invites by email (inviteUsersToOrganization)', () => {
  it('creates unknown users as members, invites known ones pending their consent, skips members, applies roles', async () => {
    const org = await newOrg(s);
    await s.api('PATCH', `/v1/orgs/${org}`, { body: { defaultRole: 'comment' } });
    const known = await outsider(s, 'known', 'known@acme.test');
    const r = await s.api('POST', `/v1/orgs/${org}/invites`, {
      body: { emails: ['Known@Acme.test', 'new@acme.test', { email: 'boss@acme.test', role: 'admin' }, 'new@acme.test', 'owner@localhost'] },
    });
    expect(r.status).toBe(200);
    expect(r.body.invited).toBe(3); // the owner is already a member; the duplicate counts once
    expect(r.body.users).toHaveLength(3);
    expect(r.body.users[0]).toBe(known.id);
    expect(r.body.failedSSOEmails).toBeUndefined();
    const roles = async () => Object.fromEntries((await s.api('GET', `/v1/orgs/${org}/members?limit=10`)).body.items.map((m: any) => [m.user.email, m.role]));
    // The known user is not a member until they accept (src/invites/pending.ts).
    expect(await roles()).toEqual({ 'owner@localhost': 'admin', 'new@acme.test': 'comment', 'boss@acme.test': 'admin' });
    expect((await s.api('GET', `/v1/orgs/${org}`, { token: known.token })).status).toBe(404);
    const pending = await s.docs('GET', '/_docs/invitations', { token: known.token });
    expect(pending.body).toEqual({
      items: [
        {
          object: 'invitation',
          id: expect.any(String),
          organization: { id: org, title: expect.any(String) },
          role: 'comment',
          invitedBy: expect.objectContaining({ email: 'owner@localhost' }),
          createdAt: expect.any(String),
        },
      ],
      count: 1,
    });
    const accepted = await s.docs('POST', `/_docs/invitations/${pending.body.items[0].id}/accept`, { token: known.token });
    expect(accepted.status).toBe(200);
    expect((await roles())['known@acme.test']).toBe('comment');
    expect((await s.docs('GET', '/_docs/invitations', { token: known.token })).body.count).toBe(0);
    const created = await s.api('GET', `/v1/users/${r.body.users[1]}`);
    expect(created.body).toMatchObject({ email: 'new@acme.test', displayName: 'new' });
    // The body's role applies to plain addresses; null makes guests.
    const g = await s.api('POST', `/v1/orgs/${org}/invites`, { body: { emails: ['guest@acme.test'], role: null } });
    expect((await s.api('GET', `/v1/orgs/${org}/members/${g.body.users[0]}`)).body.role).toBeNull();
    // Again: nobody new.
    expect((await s.api('POST', `/v1/orgs/${org}/invites`, { body: { emails: ['new@acme.test'] } })).body).toEqual({ users: [], invited: 0 });
  });

  it('with sso, members of another organization are invited without SSO and reported', async () => {
    const org = await newOrg(s);
    const elsewhere = await newOrg(s);
    const busy = await addPerson(s, elsewhere, 'read', 'busy');
    const r = await s.api('POST', `/v1/orgs/${org}/invites`, { body: { emails: ['busy@example.com', 'free@example.com'], sso: true } });
    expect(r.body.invited).toBe(2);
    expect(r.body.failedSSOEmails).toEqual(['busy@example.com']);
    const [invitation] = (await s.docs('GET', '/_docs/invitations', { token: busy.token })).body.items;
    await s.docs('POST', `/_docs/invitations/${invitation.id}/accept`, { token: busy.token });
    const sso = Object.fromEntries((await s.api('GET', `/v1/orgs/${org}/members?limit=10`)).body.items.map((m: any) => [m.user.email, m.sso]));
    expect(sso).toMatchObject({ 'busy@example.com': false, 'free@example.com': true });
  });

  it('refuses bad addresses (400 naming the entry, nothing added) and non-admins (403)', async () => {
    const org = await newOrg(s);
    const before = (await s.api('GET', `/v1/orgs/${org}/members`)).body.count;
    const bad = await s.api('POST', `/v1/orgs/${org}/invites`, { body: { emails: ['ok@acme.test', 'not-an-email'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('emails[1]: "not-an-email" is not an email address');
    expect((await s.api('POST', `/v1/orgs/${org}/invites`, { body: { emails: [] } })).body.error.message).toBe('emails: must list at least one email address');
    expect((await s.api('POST', `/v1/orgs/${org}/invites`, { body: {} })).body.error.message).toBe('body.emails: is required');
    expect((await s.api('GET', `/v1/orgs/${org}/members`)).body.count).toBe(before);
    const editor = await addPerson(s, org, 'create');
    const r = await s.api('POST', `/v1/orgs/${org}/invites`, { token: editor.token, body: { emails: ['x@acme.test'] } });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toBe('inviting people needs the admin role in this organization (you have create)');
  });
});

describe('invite links', () => {
  it('creates, lists, gets, updates, deletes; a holder joins with the role', async () => {
    const org = await newOrg(s);
    const link = await s.api('POST', `/v1/orgs/${org}/link-invites`, { body: { role: 'edit' } });
    expect(link.status).toBe(201);
    expect(link.body).toEqual({ object: 'invite', id: link.body.id, role: 'edit', redundant: true });
    const id = link.body.id;
    expect((await s.api('GET', `/v1/orgs/${org}/link-invites`)).body).toEqual({ items: [link.body], count: 1 });
    expect((await s.api('PATCH', `/v1/orgs/${org}/link-invites/${id}`, { body: { role: 'review' } })).body.role).toBe('review');

    const visitor = await outsider(s);
    // The holder of the id reads it (not redundant for them) and joins.
    expect((await s.api('GET', `/v1/orgs/${org}/link-invites/${id}`, { token: visitor.token })).body).toMatchObject({ role: 'review', redundant: false });
    expect((await s.api('GET', `/v1/orgs/${org}/link-invites`, { token: visitor.token })).status).toBe(404);
    const joined = await s.api('POST', `/v1/orgs/${org}/invites/${id}`, { token: visitor.token });
    expect(joined.status).toBe(200);
    expect(joined.body).toEqual({});
    expect((await s.api('GET', `/v1/orgs/${org}/members/${visitor.id}`)).body.role).toBe('review');
    expect((await s.api('GET', `/v1/orgs/${org}/link-invites/${id}`, { token: visitor.token })).body.redundant).toBe(true);
    // A member below the link's role is raised; one above keeps theirs.
    const reader = await addPerson(s, org, 'read');
    await s.api('POST', `/v1/orgs/${org}/invites/${id}`, { token: reader.token });
    expect((await s.api('GET', `/v1/orgs/${org}/members/${reader.id}`)).body.role).toBe('review');
    const me = (await s.api('GET', '/v1/user')).body.id;
    await s.api('POST', `/v1/orgs/${org}/invites/${id}`);
    expect((await s.api('GET', `/v1/orgs/${org}/members/${me}`)).body.role).toBe('admin');

    expect((await s.api('DELETE', `/v1/orgs/${org}/link-invites/${id}`)).status).toBe(205);
    expect((await s.api('DELETE', `/v1/orgs/${org}/link-invites/${id}`)).status).toBe(204);
    const late = await outsider(s);
    expect((await s.api('POST', `/v1/orgs/${org}/invites/${id}`, { token: late.token })).status).toBe(404);
    expect((await s.api('GET', `/v1/orgs/${org}`, { token: late.token })).status).toBe(404);
  });

  it('follows the inviteLinks switch, admin rights, and refuses space/collection links', async () => {
    const org = await newOrg(s);
    const id = (await s.api('POST', `/v1/orgs/${org}/link-invites`, { body: { role: null } })).body.id;
    await s.api('PATCH', `/v1/orgs/${org}`, { body: { inviteLinks: false } });
    const off = await s.api('POST', `/v1/orgs/${org}/link-invites`, { body: { role: 'read' } });
    expect(off.status).toBe(412);
    expect(off.body.error.message).toContain('inviteLinks: invite links are turned off');
    const visitor = await outsider(s);
    const refused = await s.api('POST', `/v1/orgs/${org}/invites/${id}`, { token: visitor.token });
    expect(refused.status).toBe(403);
    expect((await s.api('GET', `/v1/orgs/${org}`, { token: visitor.token })).status).toBe(404);
    await s.api('PATCH', `/v1/orgs/${org}`, { body: { inviteLinks: true } });
    expect((await s.api('POST', `/v1/orgs/${org}/invites/${id}`, { token: visitor.token })).status).toBe(200);
    expect((await s.api('GET', `/v1/orgs/${org}/members/${visitor.id}`)).body.role).toBeNull();

    const editor = await addPerson(s, org, 'edit');
    for (const [method, path, body] of [
      ['POST', `/v1/orgs/${org}/link-invites`, { role: 'read' }],
      ['GET', `/v1/orgs/${org}/link-invites`, undefined],
      ['PATCH', `/v1/orgs/${org}/link-invites/${id}`, { role: 'admin' }],
      ['DELETE', `/v1/orgs/${org}/link-invites/${id}`, undefined],
    ] as const) {
      const r = await s.api(method, path, { token: editor.token, body });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.error.message).toContain('needs the admin role in this organization (you have edit)');
    }
    const space = await s.api('POST', `/v1/orgs/${org}/link-invites`, { body: { level: 'read', space: 'sp1' } });
    expect(space.status).toBe(400);
    expect(space.body.error.message).toMatch(/^space: no space sp1/);
    expect((await s.api('PATCH', `/v1/orgs/${org}/link-invites/${id}`, { body: { level: 'read' } })).status).toBe(400);
    expect((await s.api('GET', `/v1/orgs/${org}/link-invites/nope`)).status).toBe(404);
  });
});

describe('joining by email domain (joinOrganization)', () => {
  it('joins with the default role when the email domain is allowed and the email verified; otherwise 403', async () => {
    const org = await newOrg(s);
    await s.api('PATCH', `/v1/orgs/${org}`, { body: { emailDomains: ['acme.com'], defaultRole: 'comment' } });
    const insider = await outsider(s, 'insider', 'jo@ACME.com');
    const other = await outsider(s, 'other', 'jo@acme.com.evil.test');
    const no = await s.api('POST', `/v1/orgs/${org}/join`, { token: other.token });
    expect(no.status).toBe(403);
    expect(no.body.error.message).toBe(
      `joining organization ${org} needs an email address in one of its allowed domains; acme.com.evil.test is not one of them`,
    );
    expect((await s.api('GET', `/v1/orgs/${org}`, { token: other.token })).status).toBe(404);
    // Nobody vouched for jo@ACME.com yet (test/security/join-domain.test.ts has the attack).
    const unverified = await s.api('POST', `/v1/orgs/${org}/join`, { token: insider.token });
    expect(unverified.status).toBe(403);
    expect(unverified.body.error.message).toContain('needs a verified email address; jo@ACME.com is not verified');
    expect((await s.docs('PATCH', `/_docs/users/${insider.id}`, { body: { emailVerified: true } })).body.emailVerified).toBe(true);
    expect((await s.api('POST', `/v1/orgs/${org}/join`, { token: insider.token })).status).toBe(204);
    expect((await s.api('GET', `/v1/orgs/${org}/members/${insider.id}`)).body.role).toBe('comment');
    // Joining again changes nothing.
    expect((await s.api('POST', `/v1/orgs/${org}/join`, { token: insider.token })).status).toBe(204);
    expect((await s.api('POST', '/v1/orgs/nope/join', { token: insider.token })).status).toBe(404);
  });
});
