import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../helpers/people.js';
import { docs } from '../helpers/cli.js';
import { connectMcp, toolText } from '../helpers/mcp.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// Boundary: inviting an EXISTING user makes a pending invitation that only that user accepts or
// declines (src/invites/pending.ts); until then it grants nothing either way. The attack this
// reproduces (issue 26, finding 1): any user made an organization and added the store's owner to
// it at once, then acted as "an admin of an organization the owner belongs to".

let s: TestServer;
let ownerOrg: string;
beforeAll(async () => {
  s = await startServer();
  ownerOrg = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

const emailOf = async (token: string) => (await s.api('GET', '/v1/user', { token })).body.email as string;
const orgIds = async (token?: string) => (await s.api('GET', '/v1/orgs', { token })).body.items.map((o: any) => o.id);

describe('pending invitations over HTTP', () => {
  it('inviting the owner into an attacker organization grants nothing until the owner accepts', async () => {
    const m = await addUser(s.ctx, ownerOrg, 'read');
    const e = (await s.api('POST', '/v1/orgs', { token: m.token, body: { title: 'Evil' } })).body.id;
    const invited = await s.api('POST', `/v1/orgs/${e}/invites`, { token: m.token, body: { emails: ['owner@localhost'], role: 'admin' } });
    expect(invited.status).toBe(200);
    // No membership: E is not the owner's, the owner is not among E's members, E's admin cannot address them as one.
    expect(await orgIds()).not.toContain(e);
    expect((await s.api('GET', `/v1/orgs/${e}`)).status).toBe(404);
    const members = (await s.api('GET', `/v1/orgs/${e}/members`, { token: m.token })).body.items.map((x: any) => x.user.email);
    expect(members).toEqual([await emailOf(m.token)]);
    const me = (await s.api('GET', '/v1/user')).body.id;
    expect((await s.api('GET', `/v1/orgs/${e}/members/${me}`, { token: m.token })).status).toBe(404);
    expect((await s.api('PATCH', `/v1/orgs/${e}/members/${me}`, { token: m.token, body: { role: 'read' } })).status).toBe(404);

    // The owner sees it, pending; declines: dropped, nothing joined.
    const pending = (await s.docs('GET', '/_docs/invitations')).body.items.filter((i: any) => i.organization.id === e);
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ object: 'invitation', role: 'admin', organization: { id: e, title: 'Evil' } });
    // Nobody else may accept or decline it (404: its existence is not told).
    for (const action of ['accept', 'decline']) {
      const other = await s.docs('POST', `/_docs/invitations/${pending[0].id}/${action}`, { token: m.token });
      expect(other.status).toBe(404);
      expect(other.body.error.message).toBe(`invitation ${pending[0].id} not found (see docs invites pending): nothing changed`);
    }
    expect((await s.docs('POST', `/_docs/invitations/${pending[0].id}/decline`)).status).toBe(200);
    expect((await s.docs('GET', '/_docs/invitations')).body.items.filter((i: any) => i.organization.id === e)).toEqual([]);
    expect(await orgIds()).not.toContain(e);
    expect((await s.docs('POST', `/_docs/invitations/${pending[0].id}/accept`)).status).toBe(404);
  });

  it('accepting makes the member with the latest role; a re-invite updates the one invitation', async () => {
    const org = (await s.api('POST', '/v1/orgs', { body: { title: 'Team org' } })).body.id;
    const ann = await addUser(s.ctx);
    const email = await emailOf(ann.token);
    await s.api('POST', `/v1/orgs/${org}/invites`, { body: { emails: [email], role: 'read' } });
    await s.api('POST', `/v1/orgs/${org}/invites`, { body: { emails: [email], role: 'edit' } });
    const list = (await s.docs('GET', '/_docs/invitations', { token: ann.token })).body;
    expect(list.count).toBe(1);
    expect(list.items[0]).toMatchObject({ role: 'edit', organization: { id: org }, invitedBy: { email: 'owner@localhost' } });
    expect(await orgIds(ann.token)).toEqual([]);
    const accepted = await s.docs('POST', `/_docs/invitations/${list.items[0].id}/accept`, { token: ann.token });
    expect(accepted.body).toMatchObject({ id: list.items[0].id, organization: { id: org }, role: 'edit' });
    expect(await orgIds(ann.token)).toEqual([org]);
    expect((await s.api('GET', `/v1/orgs/${org}/members/${ann.userId}`)).body.role).toBe('edit');
    expect((await s.docs('GET', '/_docs/invitations', { token: ann.token })).body.count).toBe(0);
  });

  it('joining with an invite link settles a pending invitation; bad requests change nothing', async () => {
    const org = (await s.api('POST', '/v1/orgs', { body: { title: 'Link org' } })).body.id;
    const bob = await addUser(s.ctx);
    await s.api('POST', `/v1/orgs/${org}/invites`, { body: { emails: [await emailOf(bob.token)] } });
    const link = (await s.api('POST', `/v1/orgs/${org}/link-invites`, { body: { role: 'comment' } })).body.id;
    expect((await s.api('POST', `/v1/orgs/${org}/invites/${link}`, { token: bob.token })).status).toBe(200);
    expect((await s.docs('GET', '/_docs/invitations', { token: bob.token })).body.count).toBe(0);

    expect((await s.docs('POST', '/_docs/invitations/nope/accept', { token: bob.token })).status).toBe(404);
    const wrong = await s.docs('DELETE', '/_docs/invitations', { token: bob.token });
    expect(wrong.status).toBe(405);
    expect(wrong.body.error.message).toBe('DELETE is not allowed on /_docs/invitations (allowed: GET)');
    expect((await s.docs('GET', '/_docs/invitations', { token: null })).status).toBe(401);
  });

  it('a new address still becomes a member at once, as an unverified user with no token', async () => {
    const org = (await s.api('POST', '/v1/orgs', { body: { title: 'New people' } })).body.id;
    const r = await s.api('POST', `/v1/orgs/${org}/invites`, { body: { emails: ['fresh@acme.test'] } });
    expect((await s.api('GET', `/v1/orgs/${org}/members/${r.body.users[0]}`)).status).toBe(200);
    expect((await s.docs('GET', '/_docs/users/fresh@acme.test')).body).toMatchObject({ email: 'fresh@acme.test', emailVerified: false, instanceOwner: false });
    expect((await s.docs('GET', '/_docs/tokens?user=fresh@acme.test')).body.count).toBe(0);
  });
});

describe('pending invitations through MCP', () => {
  it('an agent inviting the owner with the inviteUsersToOrganization tool makes only a pending invitation', async () => {
    const m = await addUser(s.ctx, ownerOrg, 'read');
    const agent = await connectMcp(s.url, m.token);
    try {
      const made = await agent.callTool({ name: 'createOrganization', arguments: { title: 'Agent org' } });
      expect(made.isError, toolText(made)).toBeFalsy();
      const e = (made.structuredContent as any).id;
      const r = await agent.callTool({ name: 'inviteUsersToOrganization', arguments: { organizationId: e, emails: ['owner@localhost'], role: 'admin' } });
      expect(r.isError, toolText(r)).toBeFalsy();
      expect(await orgIds()).not.toContain(e);
      expect((await s.docs('GET', '/_docs/invitations')).body.items.map((i: any) => i.organization.id)).toContain(e);
    } finally {
      await agent.close();
    }
  });
});

describe('pending invitations through the CLI', () => {
  it('docs invites pending | accept ID | accept ORG LINK', async () => {
    const OWNER = 'gb_api_security_invitations_owner';
    const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: OWNER };
    const ok = async (...args: string[]) => {
      const r = await docs(args, env);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    await ok('orgs', 'list');
    await ok('invites', 'send', '--emails', 'ann@acme.test', '--token', OWNER);
    const ann = (await ok('tokens', 'create', '--user', 'ann@acme.test', '--token', OWNER)).stdout.trim();
    await ok('invites', 'send', '--emails', 'cy@acme.test', '--token', OWNER);
    const cy = (await ok('tokens', 'create', '--user', 'cy@acme.test', '--token', OWNER)).stdout.trim();
    // Ann makes an organization and invites the owner: pending, the owner is not a member.
    const e = (await ok('orgs', 'create', '--title', 'Ann org', '--json', '--token', ann)).json.id;
    const sent = (await ok('invites', 'send', '--org', e, '--emails', 'owner@localhost', '--role', 'edit', '--json', '--token', ann)).json;
    expect(sent.invited).toBe(1);
    expect((await ok('orgs', 'list', '--json', '--token', OWNER)).json.items.map((o: any) => o.id)).not.toContain(e);
    const table = (await ok('invites', 'pending', '--token', OWNER)).stdout;
    expect(table).toContain(`Ann org (${e})`);
    expect(table).toContain('ann@acme.test');
    const id = (await ok('invites', 'pending', '--json', '--token', OWNER)).json.items[0].id;
    // Ann cannot accept it for the owner: exit 3, nothing changed.
    expect((await docs(['invites', 'accept', id, '--token', ann], env)).status).toBe(3);
    expect((await ok('invites', 'accept', id, '--token', OWNER)).stdout).toContain(`Joined organization Ann org (${e}) as edit.`);
    expect((await ok('orgs', 'list', '--json', '--token', OWNER)).json.items.map((o: any) => o.id)).toContain(e);
    // The invite-link form of accept still works (organization, link).
    const link = (await ok('invites', 'links', 'create', '--org', e, '--role', 'read', '--json', '--token', ann)).json.id;
    expect((await ok('invites', 'accept', e, link, '--token', cy)).stdout).toContain('Joined.');
    expect((await docs(['invites', 'decline', 'nope', '--token', cy], env)).status).toBe(3);
  });
});
