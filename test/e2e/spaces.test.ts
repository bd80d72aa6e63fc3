import { describe, expect, it } from 'vitest';
import { expectContract } from '../helpers/contract.js';
import { docs } from '../helpers/cli.js';
import { tempDir, startServer } from '../helpers/server.js';

/** The same scenario on either transport: create, tree, move, delete, restore, duplicate. */
async function scenario(env: Record<string, string>) {
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const guides = (await run('collections', 'create', '--title', 'Guides', '--json')).json;
  expectContract('POST', `/v1/orgs/${guides.organization}/collections`, 201, guides);
  const api = (await run('spaces', 'create', '--title', 'API', '--parent', guides.id, '--emoji', '📘', '--json')).json;
  expectContract('POST', `/v1/orgs/${api.organization}/spaces`, 201, api);
  const intro = (await run('spaces', 'create', '--title', 'Intro', '--parent', guides.id, '--visibility', 'in-collection', '--json')).json;
  expect(intro).toMatchObject({ parent: guides.id, visibility: 'in-collection' });

  // --before with the parent named: Intro goes first in Guides.
  const moved = (await run('spaces', 'move', intro.id, '--parent', guides.id, '--before', api.id, '--json')).json;
  expect(moved.parent).toBe(guides.id);
  const tree = (await run('spaces', 'list', '--tree')).stdout;
  expect(tree).toBe(`${guides.id}  Guides/\n${intro.id}    Intro\n${api.id}    📘 API\n`);

  // Errors keep their kind's exit code: 5 for a move that changes nothing.
  const same = await docs(['spaces', 'move', intro.id, '--before', api.id], env);
  expect(same.status).toBe(5);
  expect(same.stderr).toBe(`Error: nothing to change: space ${intro.id} is already at that place in collection ${guides.id}\n`);

  // Delete (no prompt off a terminal), then restore; duplicate right after the original.
  expect((await run('spaces', 'delete', api.id, '--yes')).stdout).toContain('Deleted');
  expect((await run('spaces', 'restore', api.id, '--json')).json).toMatchObject({ id: api.id, parent: guides.id });
  const copy = (await run('spaces', 'duplicate', intro.id, '--json')).json;
  expect(copy).toMatchObject({ title: 'Intro (copy)', parent: guides.id });
  return { guides, api, intro };
}

describe('docs collections and spaces', () => {
  // Each command is a process of its own (about half a second): these tests are few but long.
  it('work in-process', { timeout: 90_000 }, async () => {
    const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_spaces' };
    const { guides } = await scenario(env);
    const updated = await docs(['collections', 'update', guides.id, '--default-level', 'none', '--description', 'All guides', '--json'], env);
    expect(updated.json).toMatchObject({ defaultLevel: null, description: 'All guides' });
    const missing = await docs(['spaces', 'get'], env);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('missing argument SPACE_ID');
  });

  it('work against a server (--api-url, --token), transfer included', { timeout: 90_000 }, async () => {
    const data = tempDir();
    // In this process on an ephemeral port (the CLI over HTTP is what is tested, not the process).
    const s = await startServer({ dataDir: data, token: 'gb_api_e2e_remote' });
    try {
      const env = { DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_e2e_remote' };
      const { guides, api } = await scenario(env);
      const other = (await docs(['orgs', 'create', '--title', 'Other', '--json'], env)).json;
      // Two organizations now: --org is required where it was guessed before.
      const guess = await docs(['spaces', 'list'], env);
      expect(guess.status).toBe(2);
      expect(guess.stderr).toBe('Error: --org: required, you belong to 2 organizations: pass --org ID or set DOCS_ORG (see docs orgs list)\n');
      const t = await docs(['collections', 'transfer', guides.id, '--organization', other.id, '--json'], env);
      expect(t.status).toBe(0);
      expect(t.json.organization).toBe(other.id);
      const tree = await docs(['spaces', 'list', '--tree', '--org', other.id], env);
      expect(tree.stdout.split('\n')[0]).toBe(`${guides.id}  Guides/`);
      expect(tree.stdout).toContain(`${api.id}    📘 API`);
      const list = await docs(['collections', 'spaces', guides.id, '--json'], env);
      expect(list.json.items.map((x: any) => x.title)).toEqual(['Intro', 'Intro (copy)', 'API']);
      expect((await docs(['collections', 'delete', guides.id, '--yes'], env)).status).toBe(0);
      expect((await docs(['spaces', 'list', '--json'], { ...env, DOCS_ORG: other.id })).json.count).toBe(0);
    } finally {
      await s.stop();
    }
  });
});
