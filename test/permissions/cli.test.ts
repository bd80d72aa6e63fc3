import { describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { tempDir, startServer } from '../helpers/server.js';

// docs spaces|collections|sites permissions on both transports: give, list (users, teams,
// effective), update, remove; a grant above the giver's level and a user of another organization
// are refused with their exit codes and change nothing.
async function scenario(env: Record<string, string>) {
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const me = (await run('api', 'GET', '/user', '--json')).json.id as string;
  const org = (await run('api', 'GET', '/orgs', '--json')).json.items[0].id as string;
  const space = (await run('spaces', 'create', '--title', 'Shared', '--json')).json.id as string;
  const collection = (await run('collections', 'create', '--title', 'Handbook', '--json')).json.id as string;
  const team = (await run('teams', 'create', '--title', 'Writers', '--json')).json.id as string;
  const site = (await run('sites', 'create', '--title', 'Docs', '--json')).json.id as string;

  // The owner is the only member: grants go to the owner's own team (members of the organization only).
  expect((await run('spaces', 'permissions', 'add', space, '--team', team, '--role', 'edit')).stdout).toBe('Granted.\n');
  expect((await run('spaces', 'permissions', 'teams', space)).stdout).toBe(`${team}\tWriters\t0\tedit\n`);
  expect((await run('spaces', 'permissions', 'update-team', space, team, '--role', 'comment')).stdout).toBe('Updated.\n');
  expect((await run('spaces', 'permissions', 'teams', space, '--json')).json.items.map((x: any) => x.permission)).toEqual(['comment']);
  expect((await run('spaces', 'permissions', 'add', space, '--user', me, '--role', 'read')).stdout).toBe('Granted.\n');
  expect((await run('spaces', 'permissions', 'list', space, '--json')).json.items.map((x: any) => [x.user.id, x.permission])).toEqual([[me, 'read']]);
  expect((await run('spaces', 'permissions', 'effective', space, '--json')).json.items.map((x: any) => [x.user.id, x.permission])).toEqual([[me, 'admin']]);
  expect((await run('spaces', 'permissions', 'remove', space, me)).stdout).toBe('Removed.\n');
  expect((await run('spaces', 'permissions', 'remove-team', space, team)).stdout).toBe('Removed.\n');
  // Removing a grant that is not there (the API's 204): exit 3 and says so, so a script notices.
  const again = await docs(['spaces', 'permissions', 'remove', space, me], env);
  expect([again.status, again.stderr]).toEqual([3, `Error: user ${me} has no grant on space ${space}: nothing removed\n`]);
  expect((await run('spaces', 'permissions', 'list', space, '--json')).json.items).toEqual([]);
  expect((await run('spaces', 'permissions', 'teams', space, '--json')).json.items).toEqual([]);

  await run('collections', 'permissions', 'add', collection, '--team', team, '--role', 'review');
  expect((await run('collections', 'permissions', 'teams', collection, '--json')).json.items.map((x: any) => x.permission)).toEqual(['review']);
  await run('collections', 'permissions', 'update', collection, me, '--role', 'edit');
  expect((await run('collections', 'permissions', 'list', collection, '--json')).json.items.map((x: any) => x.permission)).toEqual(['edit']);
  await run('collections', 'permissions', 'remove', collection, me);
  expect((await run('collections', 'permissions', 'list', collection, '--json')).json.items).toEqual([]);

  await run('sites', 'permissions', 'add', site, '--user', me, '--role', 'read');
  expect((await run('sites', 'permissions', 'list', site, '--json')).json.items.map((x: any) => x.permission)).toEqual(['read']);
  expect((await run('sites', 'permissions', 'effective', site, '--json')).json.items).toEqual([
    expect.objectContaining({ permission: 'admin', origin: { type: 'organization', organization: org } }),
  ]);
  await run('sites', 'permissions', 'remove', site, me);
  expect((await run('sites', 'permissions', 'list', site, '--json')).json.items).toEqual([]);

  // Bad input: a user of no organization of ours (400: exit 2), a team id that is nobody's (404 in the path: exit 3).
  const stranger = 'Zz9Yy8Xx7Ww6Vv5Uu4Tt';
  const bad = await docs(['spaces', 'permissions', 'add', space, '--user', stranger, '--role', 'read'], env);
  expect([bad.status, bad.stderr]).toEqual([2, `Error: --users: user ${stranger} is not a member of organization ${org}\n`]);
  const missing = await docs(['sites', 'permissions', 'update-team', site, stranger, '--role', 'read'], env);
  expect([missing.status, missing.stderr]).toEqual([3, `Error: team ${stranger} is not a team of organization ${org}\n`]);
  const wrongRole = await docs(['spaces', 'permissions', 'add', space, '--user', me, '--role', 'owner'], env);
  expect(wrongRole.status).toBe(2);
  expect((await run('spaces', 'permissions', 'list', space, '--json')).json.items).toEqual([]);
  expect((await run('sites', 'permissions', 'teams', site, '--json')).json.items).toEqual([]);
}

describe('docs … permissions', () => {
  it('work in-process', { timeout: 90_000 }, async () => {
    await scenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_permissions' });
  });

  it('work against a server (--api-url, --token)', { timeout: 90_000 }, async () => {
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_e2e_permissions_remote' });
    try {
      await scenario({ DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_e2e_permissions_remote' });
    } finally {
      await s.stop();
    }
  });
});
