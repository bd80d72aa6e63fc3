import { describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { tempDir, startServer } from '../helpers/server.js';

// docs comments on both transports: one discussion on a space and one on a change request.
// In-process runs it all; against a server, the commands whose calls differ (each spawn costs).
async function scenario(env: Record<string, string>, full: boolean) {
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const space = (await run('spaces', 'create', '--title', 'Discussed', '--json')).json.id as string;
  const c = (await run('comments', 'add', space, 'The install steps miss the **token**.', '--json')).json;
  expect(c).toMatchObject({ object: 'comment', status: 'open', body: { markdown: 'The install steps miss the **token**.' } });
  expect((await run('comments', 'reply', space, c.id, 'Fixed in the next push.')).stdout).toMatch(/^Posted reply \w{20} to comment /);
  expect((await run('comments', 'react', space, c.id, '👍', '🎉')).stdout).toBe('Reactions: 👍 1  🎉 1\n');
  expect((await run('comments', 'react', space, c.id, '🎉', '--remove')).stdout).toBe('Reactions: 👍 1\n');
  expect((await run('comments', 'resolve', space, c.id)).stdout).toBe(`Comment ${c.id} resolved.\n`);
  if (!full) {
    expect((await run('comments', 'list', space)).stdout).toContain(`${c.id}\tOwner\t`); // a pipe: TSV rows
    await run('api', 'POST', `/spaces/${space}/change-requests`, '-f', 'subject=Review');
    const onCr = (await run('comments', 'add', space, 'Why?', '-c', '1', '--json')).json;
    expect((await run('comments', 'delete', space, onCr.id, '-c', '1', '--yes')).stdout).toBe(`Deleted comment ${onCr.id} and its replies (not restorable).\n`);
    return;
  }
  // Through a pipe, as every list: id, author, posted, status, replies, first line.
  const list = (await run('comments', 'list', space)).stdout;
  expect(list).toBe(`${c.id}\tOwner\t${c.postedAt}\tresolved\t1\tThe install steps miss the **token**.\n`);
  expect((await run('comments', 'list', space, '--status', 'open', '--json')).json.count).toBe(0);
  const shown = (await run('comments', 'get', space, c.id)).stdout;
  expect(shown).toContain('[resolved by Owner]');
  expect(shown).toContain('1 reply:');
  expect(shown).toContain('Fixed in the next push.');
  expect((await run('comments', 'reopen', space, c.id, '--json')).json.status).toBe('open');
  expect((await run('comments', 'edit', space, c.id, 'Step 3 misses the token.', '--json')).json).toMatchObject({
    body: { markdown: 'Step 3 misses the token.' },
    editedAt: expect.any(String),
  });

  const bad = await docs(['comments', 'react', space, c.id, 'thumbs'], env);
  expect(bad.status).toBe(2);
  expect(bad.stderr).toBe('Error: addedReactions[0]: must be a single emoji (got "thumbs")\n');
  expect((await docs(['comments', 'get', space, 'nosuchcomment0000000'], env)).status).toBe(3);

  // A change request's discussion: --change-request takes its number.
  await run('api', 'POST', `/spaces/${space}/change-requests`, '-f', 'subject=Review');
  const onCr = (await run('comments', 'add', space, 'Why this change?', '--change-request', '1', '--json')).json;
  expect(onCr.target.changeRequest).toEqual(expect.any(String));
  expect((await run('comments', 'list', space, '-c', '1', '--json')).json.items.map((x: any) => x.id)).toEqual([onCr.id]);
  expect((await run('api', 'GET', `/spaces/${space}/change-requests/1`, '--json')).json.comments).toBe(1);
  expect((await run('comments', 'commenters', space, '-c', '1')).stdout).toContain('Owner');
  expect((await run('comments', 'delete', space, onCr.id, '-c', '1', '--yes')).stdout).toBe(`Deleted comment ${onCr.id} and its replies (not restorable).\n`);
  const again = await docs(['comments', 'delete', space, onCr.id, '-c', '1', '--yes'], env);
  expect([again.status, again.stderr]).toEqual([3, `Error: comment ${onCr.id} not found: nothing deleted\n`]);
}

describe('docs comments', () => {
  it('work in-process', { timeout: 90_000 }, async () => {
    await scenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_comments' }, true);
  });

  it('work against a server (--api-url, --token)', { timeout: 90_000 }, async () => {
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_e2e_comments_remote' });
    try {
      await scenario({ DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_e2e_comments_remote' }, false);
    } finally {
      await s.stop();
    }
  });
});
