import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../helpers/people.js';
import { docs } from '../helpers/cli.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// Boundary: credentials for a user are created (listed, revoked) only by that user or by an
// instance owner (src/users/instance.ts). The attack this reproduces (issue 26, finding 1): a
// `read` member M of the owner's organization makes an organization E of their own, invites the
// owner into it, then mints a token for the owner as "an admin of an organization the owner is
// in" and acts as the owner everywhere.

let s: TestServer;
let ownerOrg: string;
beforeAll(async () => {
  s = await startServer();
  ownerOrg = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

const ownerTokens = async () => (await s.docs('GET', '/_docs/tokens')).body.count as number;

describe('token minting over HTTP', () => {
  it("a read member who invites the owner into their own organization gets no token of the owner's", async () => {
    const m = await addUser(s.ctx, ownerOrg, 'read');
    const e = await s.api('POST', '/v1/orgs', { token: m.token, body: { title: 'Evil' } });
    expect(e.status).toBe(201);
    expect((await s.api('POST', `/v1/orgs/${e.body.id}/invites`, { token: m.token, body: { emails: ['owner@localhost'] } })).status).toBe(200);
    const before = await ownerTokens();

    for (const user of ['owner@localhost', (await s.api('GET', '/v1/user')).body.id]) {
      const minted = await s.docs('POST', '/_docs/tokens', { token: m.token, body: { user } });
      expect(minted.status).toBe(403);
      expect(minted.body.error.message).toBe(
        `creating a token for ${user} is refused: only that user or an instance owner manages a user's tokens (an organization admin does not)`,
      );
    }
    expect(await ownerTokens()).toBe(before);
    // Nor their list, nor revoking one of theirs.
    expect((await s.docs('GET', '/_docs/tokens?user=owner@localhost', { token: m.token })).status).toBe(403);
    const ownerTokenId = (await s.docs('GET', '/_docs/tokens')).body.items[0].id;
    const revoke = await s.docs('DELETE', `/_docs/tokens/${ownerTokenId}`, { token: m.token });
    expect(revoke.status).toBe(403);
    expect(revoke.body.error.message).toContain('revoking a token for owner@localhost is refused');
    expect(await ownerTokens()).toBe(before);
  });

  it('an organization admin gets nothing over a member who accepted their invitation', async () => {
    const admin = await addUser(s.ctx);
    const e = (await s.api('POST', '/v1/orgs', { token: admin.token, body: { title: 'Admin org' } })).body.id;
    const member = await addUser(s.ctx);
    const email = (await s.api('GET', '/v1/user', { token: member.token })).body.email;
    await s.api('POST', `/v1/orgs/${e}/invites`, { token: admin.token, body: { emails: [email], role: 'read' } });
    const [invitation] = (await s.docs('GET', '/_docs/invitations', { token: member.token })).body.items;
    expect((await s.docs('POST', `/_docs/invitations/${invitation.id}/accept`, { token: member.token })).status).toBe(200);
    expect((await s.api('GET', `/v1/orgs/${e}/members/${member.userId}`, { token: admin.token })).status).toBe(200);
    const minted = await s.docs('POST', '/_docs/tokens', { token: admin.token, body: { user: member.userId } });
    expect(minted.status).toBe(403);
    // An address with no user answers the same: no one learns which addresses have an account.
    const nobody = await s.docs('POST', '/_docs/tokens', { token: admin.token, body: { user: 'nobody@acme.test' } });
    expect(nobody.status).toBe(403);
    expect(nobody.body.error.message).toContain('creating a token for nobody@acme.test is refused');
    // Their own tokens everyone manages.
    expect((await s.docs('POST', '/_docs/tokens', { token: member.token, body: { user: email, label: 'mine' } })).status).toBe(201);
  });

  it('instance owners: the bootstrap user and whom it designates; no one else designates', async () => {
    const a = await addUser(s.ctx);
    const b = await addUser(s.ctx);
    const bEmail = (await s.api('GET', '/v1/user', { token: b.token })).body.email;
    const self = await s.docs('PATCH', `/_docs/users/${a.userId}`, { token: a.token, body: { instanceOwner: true } });
    expect(self.status).toBe(403);
    expect(self.body.error.message).toMatch(/^changing user \S+ needs an instance owner/);
    expect((await s.docs('GET', '/_docs/users', { token: a.token })).status).toBe(403);
    expect((await s.docs('POST', '/_docs/tokens', { token: a.token, body: { user: bEmail } })).status).toBe(403);

    // The owner designates a: a then mints for b, lists users; then withdrawn, refused again.
    const made = await s.docs('PATCH', `/_docs/users/${a.userId}`, { body: { instanceOwner: true } });
    expect(made.body).toMatchObject({ id: a.userId, instanceOwner: true, emailVerified: false, bootstrap: false });
    expect((await s.docs('POST', '/_docs/tokens', { token: a.token, body: { user: bEmail } })).status).toBe(201);
    expect((await s.docs('GET', '/_docs/users', { token: a.token })).body.items.find((u: any) => u.bootstrap)).toMatchObject({
      email: 'owner@localhost',
      instanceOwner: true,
      emailVerified: true,
    });
    // The bootstrap owner stays one: refused (409), nothing changed.
    const demote = await s.docs('PATCH', '/_docs/users/owner@localhost', { token: a.token, body: { instanceOwner: false } });
    expect(demote.status).toBe(409);
    expect((await s.docs('PATCH', `/_docs/users/${a.userId}`, { body: { instanceOwner: false } })).body.instanceOwner).toBe(false);
    expect((await s.docs('POST', '/_docs/tokens', { token: a.token, body: { user: bEmail } })).status).toBe(403);
    // Bad input: 400 naming the field, nothing changed.
    const bad = await s.docs('PATCH', `/_docs/users/${a.userId}`, { body: { instanceOwner: 'yes' } });
    expect(bad).toMatchObject({ status: 400, body: { error: { message: 'instanceOwner: must be true or false' } } });
    expect((await s.docs('PATCH', `/_docs/users/${a.userId}`, { body: { admin: true } })).body.error.message).toBe(
      'admin: unknown field (allowed: emailVerified, instanceOwner)',
    );
  });

  it('the CLI against the server: docs tokens create --user owner@localhost as the member exits 4', async () => {
    const m = await addUser(s.ctx, ownerOrg, 'read');
    const before = await ownerTokens();
    const r = await docs(['tokens', 'create', '--user', 'owner@localhost', '--token', m.token], { DOCS_API_URL: s.url });
    expect(r.status, r.stderr).toBe(4);
    expect(r.stderr).toContain("creating a token for owner@localhost is refused: only that user or an instance owner manages a user's tokens");
    expect(await ownerTokens()).toBe(before);
  }, 30_000);
});

describe('token minting through the in-process CLI', () => {
  it('replays the attack with docs commands on a data directory: refused, the owner joins nothing', async () => {
    const OWNER = 'gb_api_security_minting_owner';
    const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: OWNER };
    const ok = async (...args: string[]) => {
      const r = await docs(args, env);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    await ok('orgs', 'list');
    await ok('invites', 'send', '--emails', 'm@acme.test', '--role', 'read', '--token', OWNER);
    const m = (await ok('tokens', 'create', '--user', 'm@acme.test', '--token', OWNER)).stdout.trim(); // the instance owner may
    const e = (await ok('orgs', 'create', '--title', 'Evil', '--json', '--token', m)).json.id;
    await ok('invites', 'send', '--org', e, '--emails', 'owner@localhost', '--token', m);
    const refused = await docs(['tokens', 'create', '--user', 'owner@localhost', '--token', m], env);
    expect(refused.status, refused.stderr).toBe(4);
    expect(refused.stderr).toContain('creating a token for owner@localhost is refused');
    expect((await ok('tokens', 'list', '--json', '--token', OWNER)).json.count).toBe(1); // the bootstrap token alone
    // The owner is not in E until they accept; they decline.
    expect((await ok('orgs', 'list', '--json', '--token', OWNER)).json.items.map((o: any) => o.id)).not.toContain(e);
    const pending = (await ok('invites', 'pending', '--json', '--token', OWNER)).json.items;
    expect(pending).toMatchObject([{ organization: { id: e, title: 'Evil' }, role: 'read', invitedBy: { email: 'm@acme.test' } }]);
    expect((await ok('invites', 'decline', pending[0].id, '--token', OWNER)).stdout).toContain(`Declined invitation ${pending[0].id} to Evil (${e}).`);
    expect((await ok('invites', 'pending', '--token', OWNER)).stderr).toContain('No pending invitations.');
  });
});
