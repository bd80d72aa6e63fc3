import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/kernel/clock.js';
import { docs, spawnServe } from '../helpers/cli.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, TEST_TOKEN } from '../helpers/server.js';

// docs spaces list --deleted: no contract operation lists deleted spaces, so the server answers
// GET /_docs/deleted-spaces (and in-process the same code): restorable spaces, with purgeAt.

const WEEK = 7 * 24 * 60 * 60 * 1000;

async function scenario(env: Record<string, string>, tag: string) {
  const ok = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const gone = (await ok('spaces', 'create', '--title', `Gone ${tag}`, '--jq', '.id')).stdout.trim();
  const stays = (await ok('spaces', 'create', '--title', `Stays ${tag}`, '--jq', '.id')).stdout.trim();
  const collection = (await ok('collections', 'create', '--title', `Box ${tag}`, '--jq', '.id')).stdout.trim();
  const inside = (await ok('spaces', 'create', '--title', `Inside ${tag}`, '--parent', collection, '--jq', '.id')).stdout.trim();
  await ok('spaces', 'delete', gone, '--yes');
  await ok('collections', 'delete', collection, '--yes'); // its spaces are deleted, restorable

  const list = (await ok('spaces', 'list', '--deleted', '--json')).json;
  const mine = list.items.filter((i: any) => [gone, inside, stays].includes(i.id));
  expect(mine.map((i: any) => i.id).sort()).toEqual([gone, inside].sort());
  for (const i of mine) {
    expect(Date.parse(i.purgeAt) - Date.parse(i.deletedAt)).toBe(WEEK);
    expect(i.restorable).toBe(true);
  }
  const table = await ok('spaces', 'list', '--deleted');
  const row = mine.find((i: any) => i.id === gone);
  expect(table.stdout).toContain(`${gone}\tGone ${tag}\t${row.deletedAt}\t${row.purgeAt}\tyes\n`);
  expect(table.stderr).toMatch(/Restore one with: docs spaces restore \w+/);
  // Still absent from the plain list; once restored, absent from --deleted.
  expect((await ok('spaces', 'list', '--all', '--json')).json.items.map((i: any) => i.id)).not.toContain(gone);
  await ok('spaces', 'restore', gone);
  expect((await ok('spaces', 'list', '--deleted', '--json')).json.items.map((i: any) => i.id)).not.toContain(gone);
  // --tree and --deleted do not go together; an unknown organization is not found.
  expect((await docs(['spaces', 'list', '--deleted', '--tree'], env)).status).toBe(2);
  expect((await docs(['spaces', 'list', '--deleted', '--org', 'nosuchorganization00'], env)).status).toBe(3);
}

describe('docs spaces list --deleted', () => {
  it('in-process, then against the docs serve holding the directory', async () => {
    const dataDir = tempDir();
    await scenario({ DOCS_DATA: dataDir }, 'local');
    const served = await spawnServe(['--data', dataDir, '--quiet']);
    try {
      await scenario({ DOCS_DATA: dataDir }, 'forwarded'); // in-process on a held directory: through the server
      const env = {
        DOCS_API_URL: served.url,
        DOCS_TOKEN: (await docs(['tokens', 'create', '--user', 'owner@localhost'], { DOCS_DATA: dataDir })).stdout.trim(),
      };
      await scenario(env, 'http');
    } finally {
      served.child.kill('SIGTERM');
      await served.exited;
    }
  }, 180_000);

  it('leaves out spaces past their 7 days, and what the caller cannot see', async () => {
    const clock = new ManualClock(Date.parse('2026-03-01T10:00:00.000Z'));
    const s = await startServer({ clock });
    try {
      const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
      const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Old' } })).body.id;
      expect((await s.api('DELETE', `/v1/spaces/${space}`)).status).toBe(205);
      const list = async (token = TEST_TOKEN) => {
        const res = await fetch(`${s.url}/_docs/deleted-spaces?organization=${org}`, { headers: { authorization: `Bearer ${token}` } });
        return { status: res.status, body: (await res.json()) as any };
      };
      expect((await list()).body.items).toEqual([
        expect.objectContaining({ id: space, deletedAt: '2026-03-01T10:00:00.000Z', purgeAt: '2026-03-08T10:00:00.000Z' }),
      ]);
      const stranger = await addUser(s.ctx);
      expect((await list(stranger.token)).status).toBe(404); // not a member: no such organization for them
      const missing = await fetch(`${s.url}/_docs/deleted-spaces`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
      expect(missing.status).toBe(400);
      clock.advance(WEEK);
      expect((await list()).body).toEqual({ items: [], count: 0 });
    } finally {
      await s.stop();
    }
  }, 30_000);
});
