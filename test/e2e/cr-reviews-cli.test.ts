import { describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// docs cr reviews|review|request-review|changes|list-org, over HTTP (--api-url) and in-process
// (--data) on the same data directory: the people are made through a server first, since
// reviewing needs someone other than the change request's creator.

async function seed(s: TestServer, _org: string, space: string, author: string) {
  const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { token: author, body: { subject: 'Setup guide' } })).body;
  await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, {
    token: author,
    body: { changes: [{ operation: 'insert_page', title: 'Setup', document: { markdown: 'Install it.' } }] },
  });
  return cr;
}

async function scenario(
  env: Record<string, string>,
  space: string,
  cr: { id: string; number: number },
  as: { author: string; reviewer: string; reviewerId: string },
) {
  const run = async (token: string, ...args: string[]) => {
    const r = await docs([...args, '--token', token], env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const n = String(cr.number);
  expect((await run(as.author, 'cr', 'changes', space, n)).stdout).toBe('page_created\tSetup\tsetup\t\n');
  const asked = (await run(as.author, 'cr', 'request-review', space, n, '--user', as.reviewerId, '--description', 'Adds *setup*.', '--json')).json;
  expect(asked.users[0].user.id).toBe(as.reviewerId);
  expect((await run(as.reviewer, 'cr', 'list-org', '--requested-reviewer', as.reviewerId, '--json')).json.items.map((c: any) => c.id)).toEqual([cr.id]);
  const own = await docs(['cr', 'review', space, n, '--status', 'approved', '--token', as.author], env);
  expect(own.status).toBe(4);
  expect(own.stderr).toMatch(/needs the review level on space .* \(you have edit\)/);
  const done = (await run(as.reviewer, 'cr', 'review', space, n, '--status', 'approved', '--comment', 'Ship it.', '--json')).json;
  expect(done).toMatchObject({ status: 'approved', outdated: false, comment: { body: { markdown: 'Ship it.' } } });
  const table = (await run(as.reviewer, 'cr', 'reviews', space, n)).stdout;
  expect(table).toContain(done.id);
  expect(table).toContain('Ship it.');
  expect((await run(as.reviewer, 'cr', 'list-org', '--requested-reviewer', as.reviewerId, '--json')).json.count).toBe(0);
}

describe('docs cr review commands', () => {
  it('over HTTP (the server in this process), then in-process on the same data directory', async () => {
    const dataDir = tempDir();
    const s = await startServer({ dataDir });
    let state: any;
    try {
      const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
      const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'CLI reviews' } })).body.id;
      const author = await addUser(s.ctx, org, 'edit');
      const reviewer = await addUser(s.ctx, org, 'review');
      const as = { author: author.token, reviewer: reviewer.token, reviewerId: reviewer.userId };
      state = { space, as, first: await seed(s, org, space, author.token), second: await seed(s, org, space, author.token) };
      await scenario({ DOCS_API_URL: s.url }, state.space, state.first, state.as);
    } finally {
      await s.stop();
    }
    await scenario({ DOCS_DATA: dataDir }, state.space, state.second, state.as);
  }, 90_000);
});
