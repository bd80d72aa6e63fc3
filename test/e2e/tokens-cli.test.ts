import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/kernel/clock.js';
import { docs, spawnServe } from '../helpers/cli.js';
import { startServer, tempDir, TEST_TOKEN } from '../helpers/server.js';

// docs tokens create|list|revoke: in-process on a data directory, and against the docs serve
// holding it (--api-url, its /_docs/tokens route). An invited member, who has no token until an
// instance owner makes one, then reviews a change request from the CLI.

const OWNER = 'gb_api_tokens_cli_owner';

/** The user a token acts as, asked over HTTP, or in-process when there is no server. */
async function whoIs(token: string, env: Record<string, string>): Promise<{ status: number; email?: string }> {
  const r = await docs(['api', 'GET', '/user', '--token', token], env);
  return { status: r.status, email: r.json?.email };
}

async function scenario(env: Record<string, string>, as: { owner: string }, tag: string) {
  const ok = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const reviewer = `rev-${tag}@acme.com`;
  const editor = `ed-${tag}@acme.com`;
  // Invited people exist as users and members, with no token.
  await ok('invites', 'send', '--emails', reviewer, '--role', 'review', '--token', as.owner);
  await ok('invites', 'send', '--emails', editor, '--role', 'edit', '--token', as.owner);

  // The instance owner creates a token for the invited member: printed once, on stdout alone.
  const made = await ok('tokens', 'create', '--user', reviewer, '--label', 'review laptop', '--expires', '30d', '--token', as.owner);
  const secret = made.stdout.trim();
  expect(secret).toMatch(/^gb_api_\w+$/);
  expect(made.stderr).toMatch(/Created token tok_[0-9a-f]{16} for .* shown only now/);
  expect(await whoIs(secret, env)).toEqual({ status: 0, email: reviewer });

  // Listed with its label and last use, never the secret.
  const listed = await ok('tokens', 'list', '--user', reviewer, '--json', '--token', as.owner);
  expect(listed.stdout).not.toContain(secret);
  expect(listed.json.count).toBe(1);
  const row = listed.json.items[0];
  expect(row).toMatchObject({ label: 'review laptop', user: { email: reviewer } });
  expect(Date.parse(row.lastUsedAt)).toBeGreaterThan(Date.parse(row.createdAt) - 1000);
  expect(Date.parse(row.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);
  const table = (await ok('tokens', 'list', '--token', secret)).stdout; // their own, as themself
  expect(table).toContain(row.id);
  expect(table).toContain('review laptop');
  expect(table).not.toContain(secret);

  // Nobody but the user and an instance owner makes a token for a user: exit 4, nothing made
  // (an organization admin neither: test/security/token-minting.test.ts).
  const editorToken = (await ok('tokens', 'create', '--user', editor, '--token', as.owner)).stdout.trim();
  const refused = await docs(['tokens', 'create', '--user', reviewer, '--token', editorToken], env);
  expect(refused.status, refused.stderr).toBe(4);
  expect(refused.stderr).toMatch(/only that user or an instance owner/);
  expect((await docs(['tokens', 'list', '--user', reviewer, '--token', editorToken], env)).status).toBe(4);
  expect((await docs(['tokens', 'revoke', row.id, '--yes', '--token', editorToken], env)).status).toBe(4);
  expect((await ok('tokens', 'list', '--user', reviewer, '--json', '--token', as.owner)).json.count).toBe(1);
  // Their own tokens they manage: make one for themself.
  expect((await ok('tokens', 'create', '--user', editor, '--label', 'second', '--token', editorToken)).stdout).toMatch(/^gb_api_/);

  // Bad input changes nothing.
  expect(await docs(['tokens', 'create', '--user', reviewer, '--expires', 'soon', '--token', as.owner], env)).toMatchObject({
    status: 2,
    stderr: expect.stringMatching(/--expires: "soon" is neither/),
  });
  expect((await docs(['tokens', 'create', '--user', 'nobody@acme.com', '--token', as.owner], env)).status).toBe(3);
  expect((await docs(['tokens', 'revoke', 'tok_0000000000000000', '--yes', '--token', as.owner], env)).status).toBe(3);

  // The review flow of the issue: the invited reviewer reviews the owner's change request.
  const space = (await ok('spaces', 'create', '--title', `Reviews ${tag}`, '--json', '--token', as.owner)).json.id;
  const cr = (await ok('cr', 'create', space, '--subject', 'Setup guide', '--json', '--token', as.owner)).json;
  const review = (await ok('cr', 'review', space, String(cr.number), '--status', 'approved', '--json', '--token', secret)).json;
  expect(review).toMatchObject({ status: 'approved' });
  expect(
    (await ok('cr', 'reviews', space, String(cr.number), '--json', '--token', as.owner)).json.items.map((r: any) => r.reviewer?.id ?? r.user?.id),
  ).toHaveLength(1);

  // Revoked: refused with 401 (exit 4) at once; not confirmed off a terminal without --yes.
  const unconfirmed = await docs(['tokens', 'revoke', row.id, '--token', as.owner], env);
  expect(unconfirmed.status).toBe(2);
  expect(unconfirmed.stderr).toMatch(/pass --yes/);
  expect((await ok('tokens', 'revoke', row.id, '--yes', '--token', as.owner)).stdout).toContain(`Revoked token ${row.id} (review laptop) of ${reviewer}.`);
  expect((await whoIs(secret, env)).status).toBe(4);
  expect((await ok('tokens', 'list', '--user', reviewer, '--json', '--token', as.owner)).json.count).toBe(0);
  expect((await docs(['tokens', 'revoke', row.id, '--yes', '--token', as.owner], env)).status).toBe(3);
}

describe('docs tokens', () => {
  it('in-process on a data directory, then against the docs serve holding it', async () => {
    const dataDir = tempDir();
    const boot = await docs(['orgs', 'list', '--json'], { DOCS_DATA: dataDir, DOCS_BOOTSTRAP_TOKEN: OWNER });
    expect(boot.status, boot.stderr).toBe(0);
    await scenario({ DOCS_DATA: dataDir }, { owner: OWNER }, 'local');

    const served = await spawnServe(['--data', dataDir, '--quiet']);
    try {
      // On an existing directory the server says how to get a token, and that way works while it runs.
      expect(served.output()).toMatch(/docs serve: a token for HTTP use: docs tokens create --user owner@localhost --data /);
      const viaServer = await docs(['tokens', 'create', '--user', 'owner@localhost', '--label', 'lost mine'], { DOCS_DATA: dataDir });
      expect(viaServer.status, viaServer.stderr).toBe(0);
      const res = await fetch(`${served.url}/v1/user`, { headers: { authorization: `Bearer ${viaServer.stdout.trim()}` } });
      expect(res.status).toBe(200);
      expect((await res.json()).email).toBe('owner@localhost');

      await scenario({ DOCS_API_URL: served.url }, { owner: OWNER }, 'http');
      // The route answers in the API's error body: no token, 401; a wrong method, 405.
      const anon = await fetch(`${served.url}/_docs/tokens`);
      expect(anon.status).toBe(401);
      expect((await anon.json()).error.code).toBe(401);
      const put = await fetch(`${served.url}/_docs/tokens`, { method: 'PUT', headers: { authorization: `Bearer ${OWNER}` } });
      expect(put.status).toBe(405);
    } finally {
      served.child.kill('SIGTERM');
      await served.exited;
    }
  }, 180_000);

  it('expired tokens get 401; last use is written at most once a minute', async () => {
    const clock = new ManualClock(Date.parse('2026-03-01T10:00:00.000Z'));
    const s = await startServer({ clock });
    try {
      const created = await fetch(`${s.url}/_docs/tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ user: 'owner@localhost', label: 'short', expiresAt: '2026-03-01T12:00:00Z' }),
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('cache-control')).toBe('no-store');
      const { token, id } = await created.json();
      const list = async () =>
        ((await (await fetch(`${s.url}/_docs/tokens`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } })).json()).items as any[]).find((t) => t.id === id);
      expect((await list()).lastUsedAt).toBeNull();
      expect((await s.api('GET', '/v1/user', { token })).status).toBe(200);
      expect((await list()).lastUsedAt).toBe('2026-03-01T10:00:00.000Z');
      clock.advance(30_000);
      expect((await s.api('GET', '/v1/user', { token })).status).toBe(200);
      expect((await list()).lastUsedAt).toBe('2026-03-01T10:00:00.000Z'); // within the minute: no write
      clock.advance(31_000);
      expect((await s.api('GET', '/v1/user', { token })).status).toBe(200);
      expect((await list()).lastUsedAt).toBe('2026-03-01T10:01:01.000Z');
      clock.set('2026-03-01T12:00:00.000Z');
      const expired = await s.api('GET', '/v1/user', { token });
      expect(expired.status).toBe(401);
      expect(expired.body.error.message).toMatch(/expired/);
      // A date already past is refused (400), nothing made.
      const past = await fetch(`${s.url}/_docs/tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ user: 'owner@localhost', expiresAt: '2026-01-01T00:00:00Z' }),
      });
      expect(past.status).toBe(400);
    } finally {
      await s.stop();
    }
  }, 30_000);
});
