import { createLocalJWKSet, jwtVerify } from 'jose';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { expectContract } from '../helpers/contract.js';
import { BIN, docs } from '../helpers/cli.js';
import { tempDir, startServer } from '../helpers/server.js';

describe('organization commands, in-process', () => {
  const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_orgs' };

  it('invites people, lists and filters members, changes a role to guest, refuses to remove off a TTY without --yes, exit 3 when there is nobody to remove', async () => {
    const sent = await docs(['invites', 'send', '--emails', 'ann@acme.com', '--emails', 'bob@acme.com', '--role', 'edit', '--json'], env);
    expect(sent.status).toBe(0);
    expect(sent.json.invited).toBe(2);
    const [ann, bob] = sent.json.users;
    const table = await docs(['members', 'list', '--role', 'edit'], env);
    expect(table.stdout).toContain('ann@acme.com');
    expect(table.stdout).not.toContain('owner@localhost');
    const guest = await docs(['members', 'update', ann, '--role', 'guest', '--json'], env);
    expectContract('PATCH', `/v1/orgs/x/members/${ann}`, 200, guest.json);
    expect(guest.json.role).toBeNull();
    // Not on a terminal: refused without --yes, nothing removed.
    const refused = await docs(['members', 'remove', bob], env);
    expect(refused.status).toBe(2);
    // Named: the member's name and email, the organization's title.
    expect(refused.stderr).toMatch(new RegExp(`^Error: Remove member "[^"]+" <[^>]+> \\(${bob}\\) from "[^"]+": not confirmed; pass --yes to confirm`));
    const removed = await docs(['members', 'remove', bob, '--yes'], env);
    expect(removed.status).toBe(0);
    expect(removed.stdout).toMatch(new RegExp(`^Removed member ${bob} from organization \\S+\\. To add them back: docs invites send`));
    const again = await docs(['members', 'remove', bob, '--yes'], env);
    expect([again.status, again.stderr]).toEqual([3, expect.stringContaining(`member ${bob} not found`)]);
    const denied = await docs(['members', 'update', 'nobody', '--role', 'read'], env);
    expect(denied.status).toBe(3);
    expect(denied.stderr).toBe('Error: member nobody not found in this organization\n');
    expect((await docs(['members', 'update', ann, '--role', 'owner'], env)).status).toBe(2);
  });

  it('creates a team, updates its members in one change, lists them', async () => {
    const team = await docs(['teams', 'create', '--title', 'Engineering', '--json'], env);
    expect(team.status).toBe(0);
    const upd = await docs(['teams', 'members', 'update', team.json.id, '--add', 'ann@acme.com'], env);
    expect(upd.stdout).toBe('Team members updated.\n');
    const list = await docs(['teams', 'members', 'list', team.json.id], env);
    expect(list.stdout).toContain('ann@acme.com');
    expect((await docs(['teams', 'list', '--title', 'ENG', '--json'], env)).json.items[0]).toMatchObject({ title: 'Engineering', members: 1 });
  });

  it('sets agent instructions from markdown on stdin and prints them back as markdown', async () => {
    const md = '# Agent\n\nAnswer **briefly**.\n\n- cite sources\n- be kind\n';
    const set = spawnSync(process.execPath, [BIN, 'agent-instructions', 'set'], { input: md, encoding: 'utf8', env: { ...process.env, ...env } });
    expect(set.stderr).toBe('');
    expect(set.stdout).toBe('Agent instructions updated (3 blocks).\n');
    const got = await docs(['agent-instructions', 'get'], env);
    expect(got.stdout).toBe(md);
    const json = await docs(['agent-instructions', 'get', '--json'], env);
    expectContract('GET', '/v1/orgs/x/agent-instructions', 200, json.json);
    expect((await docs(['agent-instructions', 'set', '/nonexistent.md'], env)).status).toBe(2);
  });
});

describe('organization commands, over HTTP (--api-url)', () => {
  it('updates the organization, manages SAML, pings, with the same shapes as the API', async () => {
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_remote_orgs' });
    const remote = { DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_remote_orgs' };
    try {
      const org = (await docs(['orgs', 'list', '--json'], remote)).json.items[0].id;
      const upd = await docs(
        ['orgs', 'update', org, '--hostname', 'acme-docs', '--email-domains', 'acme.com', '--default-role', 'comment', '--no-invite-links', '--json'],
        remote,
      );
      expect(upd.status).toBe(0);
      expectContract('PATCH', `/v1/orgs/${org}`, 200, upd.json);
      expect(upd.json).toMatchObject({ hostname: 'acme-docs', emailDomains: ['acme.com'], defaultRole: 'comment', inviteLinks: false });
      const bad = await docs(['orgs', 'update', org, '--hostname', 'Bad_Host'], remote);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toBe('Error: --hostname: must be lowercase letters, digits and hyphens, starting and ending with a letter or digit\n');

      const saml = await docs(
        ['saml', 'create', '--label', 'Okta', '--entity-id', 'urn:okta', '--certificate', 'MIIC', '--sso-url', 'https://idp.test/sso', '--json'],
        remote,
      );
      expect(saml.status).toBe(0);
      expectContract('POST', `/v1/orgs/${org}/saml`, 201, saml.json);
      expect(saml.json.service.acsURL).toBe(`${s.url}/sso/saml/${saml.json.id}/acs`);
      expect((await docs(['saml', 'logins'], remote)).stdout).toContain(`${s.url}/sso/saml/${saml.json.id}/start`);
      expect((await docs(['saml', 'delete', saml.json.id, '--yes'], remote)).stdout).toBe(`Deleted SAML provider ${saml.json.id} (not restorable).\n`);

      const ping = await docs(['members', 'ping', '--json'], remote);
      const jwks = await (await fetch(`${s.url}/.well-known/jwks.json`)).json();
      const { payload } = await jwtVerify(ping.json.gitbookVisitorClaims, createLocalJWKSet(jwks), { issuer: s.url });
      expect(payload.organization).toBe(org);
      const link = await docs(['invites', 'links', 'create', '--role', 'read'], remote);
      expect(link.status).toBe(5); // invite links were turned off above: 412
      expect(link.stderr).toContain('inviteLinks: invite links are turned off');
    } finally {
      await s.stop();
    }
  });
});
