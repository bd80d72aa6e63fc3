import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertToken } from '../../src/auth/tokens.js';
import { docs } from '../helpers/cli.js';
import { connectMcp, toolText } from '../helpers/mcp.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// Boundary: joining an organization by email domain (joinOrganization) needs an email address the
// instance verified: the bootstrap owner's, or one an instance owner marked (docs users update
// --email-verified). A user made by someone's invitation is not verified, nor becomes so by
// accepting an invitation (no mail went to the address). The attack this reproduces (issue 26,
// finding 2): invite fake@acme.com into an organization of your own (which makes that user), get
// its token, and join every organization that admits acme.com.

let s: TestServer;
let victim: string;
beforeAll(async () => {
  s = await startServer();
  victim = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  await s.api('PATCH', `/v1/orgs/${victim}`, { body: { emailDomains: ['acme.com'], defaultRole: 'edit' } });
});
afterAll(() => s.stop());

/** A token for an existing user, put in the store (as an instance owner could issue it). */
async function tokenFor(userId: string): Promise<string> {
  const token = `gb_api_join_${userId}`;
  await s.ctx.store.write((tx) => insertToken(tx, token, userId, 'test', new Date()));
  return token;
}

describe('join by email domain over HTTP', () => {
  it('a user made by an attacker invitation cannot join the victim organization', async () => {
    // The attacker: any user with an organization of their own.
    const attacker = (await addUser(s.ctx)).token;
    const own = (await s.api('POST', '/v1/orgs', { token: attacker, body: { title: 'Attacker org' } })).body.id;
    const fake = (await s.api('POST', `/v1/orgs/${own}/invites`, { token: attacker, body: { emails: ['fake@acme.com'] } })).body.users[0];
    const token = await tokenFor(fake);
    const before = (await s.api('GET', `/v1/orgs/${victim}/members`)).body.count;
    const r = await s.api('POST', `/v1/orgs/${victim}/join`, { token });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toBe(
      `joining organization ${victim} by email domain needs a verified email address; fake@acme.com is not verified on this instance (an instance owner verifies it: docs users update fake@acme.com --email-verified)`,
    );
    expect((await s.api('GET', `/v1/orgs/${victim}`, { token })).status).toBe(404);
    expect((await s.api('GET', `/v1/orgs/${victim}/members`)).body.count).toBe(before);
  });

  it('accepting an invitation verifies nothing; an instance owner marking the address does', async () => {
    const first = (await s.api('POST', '/v1/orgs', { body: { title: 'Where jo was invited' } })).body.id;
    const jo = (await s.api('POST', `/v1/orgs/${first}/invites`, { body: { emails: ['jo@acme.com'] } })).body.users[0];
    const token = await tokenFor(jo);
    const second = (await s.api('POST', '/v1/orgs', { body: { title: 'Second' } })).body.id;
    await s.api('POST', `/v1/orgs/${second}/invites`, { body: { emails: ['jo@acme.com'] } });
    const [inv] = (await s.docs('GET', '/_docs/invitations', { token })).body.items;
    expect((await s.docs('POST', `/_docs/invitations/${inv.id}/accept`, { token })).status).toBe(200);
    expect((await s.api('POST', `/v1/orgs/${victim}/join`, { token })).status).toBe(403);

    // Only an instance owner vouches: jo cannot mark themself.
    const self = await s.docs('PATCH', `/_docs/users/${jo}`, { token, body: { emailVerified: true } });
    expect(self.status).toBe(403);
    expect((await s.api('POST', `/v1/orgs/${victim}/join`, { token })).status).toBe(403);
    expect((await s.docs('PATCH', '/_docs/users/jo@acme.com', { body: { emailVerified: true } })).body.emailVerified).toBe(true);
    expect((await s.api('POST', `/v1/orgs/${victim}/join`, { token })).status).toBe(204);
    expect((await s.api('GET', `/v1/orgs/${victim}/members/${jo}`)).body.role).toBe('edit');
  });

  it('withdrawing verification stops later joins', async () => {
    const org = (await s.api('POST', '/v1/orgs', { body: { title: 'Also acme', emailDomains: ['acme.com'] } })).body.id;
    const seed = (await s.api('POST', '/v1/orgs', { body: { title: 'Seed' } })).body.id;
    const kim = (await s.api('POST', `/v1/orgs/${seed}/invites`, { body: { emails: ['kim@acme.com'] } })).body.users[0];
    const token = await tokenFor(kim);
    await s.docs('PATCH', `/_docs/users/${kim}`, { body: { emailVerified: true } });
    expect((await s.docs('PATCH', `/_docs/users/${kim}`, { body: { emailVerified: false } })).body.emailVerified).toBe(false);
    expect((await s.api('POST', `/v1/orgs/${org}/join`, { token })).status).toBe(403);
  });
});

describe('join by email domain through MCP', () => {
  it('the joinOrganization tool refuses an unverified address the same way', async () => {
    const seed = (await s.api('POST', '/v1/orgs', { body: { title: 'Agent seed' } })).body.id;
    const bot = (await s.api('POST', `/v1/orgs/${seed}/invites`, { body: { emails: ['bot@acme.com'] } })).body.users[0];
    const agent = await connectMcp(s.url, await tokenFor(bot));
    try {
      const r = await agent.callTool({ name: 'joinOrganization', arguments: { organizationId: victim } });
      expect(r.isError).toBe(true);
      expect(toolText(r)).toContain('needs a verified email address; bot@acme.com is not verified');
      expect((await s.api('GET', `/v1/orgs/${victim}/members/${bot}`)).status).toBe(404);
    } finally {
      await agent.close();
    }
  });
});

describe('join by email domain through the CLI', () => {
  it('docs orgs join exits 4 for an unverified address; docs users update --email-verified lets it in', async () => {
    const OWNER = 'gb_api_security_join_owner';
    const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: OWNER };
    const ok = async (...args: string[]) => {
      const r = await docs(args, env);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    const victimOrg = (await ok('orgs', 'list', '--json')).json.items[0].id;
    await ok('orgs', 'update', victimOrg, '--email-domains', 'acme.com', '--token', OWNER);
    const own = (await ok('orgs', 'create', '--title', 'Side org', '--json', '--token', OWNER)).json.id;
    await ok('invites', 'send', '--org', own, '--emails', 'fake@acme.com', '--token', OWNER);
    const fake = (await ok('tokens', 'create', '--user', 'fake@acme.com', '--token', OWNER)).stdout.trim();
    const refused = await docs(['orgs', 'join', victimOrg, '--token', fake], env);
    expect(refused.status, refused.stderr).toBe(4);
    expect(refused.stderr).toContain('needs a verified email address; fake@acme.com is not verified');
    // Only an instance owner lists users and marks them.
    expect((await docs(['users', 'list', '--token', fake], env)).status).toBe(4);
    expect((await ok('users', 'list', '--json', '--token', OWNER)).json.items.find((u: any) => u.email === 'fake@acme.com')).toMatchObject({
      emailVerified: false,
    });
    expect((await ok('users', 'update', 'fake@acme.com', '--email-verified', '--token', OWNER)).stdout).toContain(
      'User fake@acme.com: email verified, not an instance owner.',
    );
    await ok('orgs', 'join', victimOrg, '--token', fake);
    expect((await ok('orgs', 'list', '--json', '--token', fake)).json.items.map((o: any) => o.id)).toContain(victimOrg);
    // Bad input: no change asked for, exit 2.
    expect((await docs(['users', 'update', 'fake@acme.com', '--token', OWNER], env)).status).toBe(2);
  });
});
