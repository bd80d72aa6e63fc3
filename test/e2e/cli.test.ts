import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectContract } from '../helpers/contract.js';
import { docs, spawnServe } from '../helpers/cli.js';
import { startServer, tempDir } from '../helpers/server.js';

describe('docs CLI, in-process', () => {
  const data = tempDir();
  const env = { DOCS_DATA: data, DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e' };

  it('prints its version', async () => {
    const r = await docs(['--version']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^docs\/\d+\.\d+\.\d+ /);
  });

  it('initializes the data directory, then creates, lists and gets organizations', async () => {
    const created = await docs(['orgs', 'create', '--title', 'Acme Docs', '--email-domains', 'acme.com', '--json'], env);
    expect(created.status).toBe(0);
    expect(created.stderr).toContain('Initialized data directory');
    expectContract('POST', '/v1/orgs', 201, created.json);
    expect(created.json).toMatchObject({ title: 'Acme Docs', emailDomains: ['acme.com'] });
    const list = await docs(['orgs', 'list', '--json'], env);
    expectContract('GET', '/v1/orgs', 200, list.json);
    expect(list.json.items.map((o: any) => o.title)).toEqual(['My Organization', 'Acme Docs']);
    const got = await docs(['orgs', 'get', created.json.id], env);
    expect(got.status).toBe(0);
    // Not a terminal: one object as key<TAB>value lines, a list as tab-separated rows, no header.
    expect(got.stdout).toMatch(/^title\tAcme Docs$/m);
    const table = await docs(['orgs', 'list'], env);
    expect(table.stdout).toMatch(new RegExp(`^${created.json.id}\tAcme Docs\t`, 'm'));
    expect(table.stdout.trim().split('\n')).toHaveLength(2);
    expect(table.stdout).not.toMatch(/[│┌─]|^ID/m);
  });

  it('exits with the code of the error kind and one line on stderr', async () => {
    const missing = await docs(['orgs', 'get', 'nope'], env);
    expect(missing.status).toBe(3);
    expect(missing.stderr).toBe('Error: organization nope not found\n');
    const bad = await docs(['orgs', 'create', '--title', 'A'], env);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('Error: --title: must NOT have fewer than 2 characters (see docs orgs create --help)\n');
    const badJson = await docs(['orgs', 'create', '--title', 'A', '--json'], env);
    expect(badJson.json).toEqual({ error: { code: 400, message: '--title: must NOT have fewer than 2 characters (see docs orgs create --help)' } });
    const noArg = await docs(['orgs', 'get'], env);
    expect(noArg.status).toBe(2);
    expect(noArg.stderr).toContain('missing argument ORGANIZATION_ID');
    const badFlag = await docs(['orgs', 'list', '--nope'], env);
    expect(badFlag.status).toBe(2);
  });

  it('sends any request with docs api', async () => {
    const post = await docs(['api', 'POST', '/orgs', '-f', 'title=From api', '--json'], env);
    expect(post.status).toBe(0);
    expect(post.json.title).toBe('From api');
    const get = await docs(['api', 'GET', '/orgs', '-f', 'limit=1'], env);
    expect(JSON.parse(get.stdout).items).toHaveLength(1);
    const notFound = await docs(['api', 'GET', '/nope'], env);
    expect(notFound.status).toBe(3);
  });
});

describe('docs serve and the CLI together', () => {
  it('forwards in-process commands to the server holding the directory, and shuts down cleanly', async () => {
    const data = tempDir();
    const s = await spawnServe(['--data', data], { DOCS_BOOTSTRAP_TOKEN: 'gb_api_served' });
    try {
      expect(s.output()).toContain('Token (shown once): gb_api_served');
      const lock = JSON.parse(readFileSync(join(data, 'lock.json'), 'utf8'));
      expect(lock).toMatchObject({ pid: s.child.pid, url: s.url });
      const created = await docs(['orgs', 'create', '--title', 'Via server', '--json'], { DOCS_DATA: data });
      expect(created.status).toBe(0);
      expect(created.json.urls.location).toBe(`${s.url}/v1/orgs/${created.json.id}`);
      // The server's request log reaches this process through a pipe: a moment later.
      await expect.poll(() => s.output(), { timeout: 5000 }).toMatch(/POST \/v1\/orgs 201 [\d.]+ms/);
      // A second server on the same directory is refused with a clear message.
      const second = await docs(['serve', '--port', '0', '--data', data]);
      expect(second.status).toBe(5);
      expect(second.stderr).toContain(`is held by docs serve at ${s.url}`);
      // The port is taken: a clear message too.
      const port = new URL(s.url).port;
      const taken = await docs(['serve', '--port', port, '--data', tempDir()]);
      expect(taken.status).toBe(5);
      expect(taken.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    } finally {
      s.child.kill('SIGTERM');
    }
    expect(await s.exited).toBe(0);
    expect(existsSync(join(data, 'lock.json'))).toBe(false);
    const after = await docs(['orgs', 'list', '--json'], { DOCS_DATA: data });
    expect(after.json.items.map((o: any) => o.title)).toContain('Via server');
  });

  it('works against a server with --api-url and --token, and refuses a wrong token with exit 4', async () => {
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_remote' });
    const conf = tempDir();
    try {
      const ok = await docs(['orgs', 'list', '--api-url', s.url, '--token', 'gb_api_remote', '--json']);
      expect(ok.status).toBe(0);
      expectContract('GET', '/v1/orgs', 200, ok.json);
      const wrong = await docs(['orgs', 'list', '--api-url', s.url, '--token', 'gb_api_wrong']);
      expect(wrong.status).toBe(4);
      expect(wrong.stderr).toBe('Error: invalid token\n');
      // Saved logins: login verifies the token, status uses it, logout forgets it.
      expect((await docs(['auth', 'login', '--api-url', s.url, '--token', 'gb_api_wrong'], { DOCS_CONFIG_DIR: conf })).status).toBe(4);
      const login = await docs(['auth', 'login', '--api-url', s.url, '--token', 'gb_api_remote'], { DOCS_CONFIG_DIR: conf });
      expect(login.stdout).toContain('as Owner <owner@localhost>');
      const status = await docs(['auth', 'status', '--json'], { DOCS_CONFIG_DIR: conf });
      expect(status.json).toMatchObject({
        target: s.url,
        remote: true,
        via: 'profile default',
        profile: 'default',
        tokenFrom: 'profile default',
        user: { email: 'owner@localhost' },
      });
      // Where the token comes from, as typed: a flag, an environment variable.
      expect((await docs(['auth', 'status', '--json', '--api-url', s.url, '--token', 'gb_api_remote'], { DOCS_CONFIG_DIR: conf })).json).toMatchObject({
        via: '--api-url',
        tokenFrom: '--token',
      });
      expect((await docs(['auth', 'status', '--json'], { DOCS_CONFIG_DIR: conf, DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_remote' })).json).toMatchObject({
        via: 'DOCS_API_URL',
        tokenFrom: 'DOCS_TOKEN',
      });
      expect((await docs(['orgs', 'list', '--json'], { DOCS_CONFIG_DIR: conf })).json.count).toBe(1);
      expect((await docs(['auth', 'logout'], { DOCS_CONFIG_DIR: conf })).status).toBe(0);
      expect((await docs(['auth', 'logout'], { DOCS_CONFIG_DIR: conf })).status).toBe(3);
      // After logout it does not look logged in: in-process, as the local store's owner, and says so.
      const after = await docs(['auth', 'status'], { DOCS_CONFIG_DIR: conf, DOCS_DATA: tempDir() });
      expect(after.stdout).toMatch(/^via\tDOCS_DATA$/m);
      expect(after.stdout).toMatch(/^token\tnone \(in-process: acting as the store's owner\)$/m);
      expect(after.stdout).toContain('Not logged in to a server');
    } finally {
      await s.stop();
    }
  });
});
