import { afterAll, describe, expect, it } from 'vitest';
import { postgresOrSkip } from '../helpers/postgres.js';
import { bearerCall, pgServers } from '../helpers/pg-servers.js';

// A GET answer server A keeps (server/answers.ts) and the token it authenticated
// (src/auth/tokens.ts) are read again once A hears of a commit server B made: the store's
// generation moves on every change heard from another process, not only on A's own commits.

const pgUrl = await postgresOrSkip();
const TOKEN = 'gb_api_kept_answers';

describe.skipIf(!pgUrl)('kept answers with two docs serve processes on one PostgreSQL store', () => {
  const servers = pgServers(pgUrl!, 'kept_answers', TOKEN);
  afterAll(() => servers.stop());

  it('a space kept by one server shows the change the other committed', async () => {
    const a = await servers.start();
    const b = await servers.start();
    const call = bearerCall(TOKEN);
    const org = (await call(a.url, 'GET', '/v1/orgs')).items[0].id;
    const space = (await call(a.url, 'POST', `/v1/orgs/${org}/spaces`, { title: 'First' })).id;
    const title = async () => (await call(a.url, 'GET', `/v1/spaces/${space}`)).title as string;
    expect(await title()).toBe('First');
    expect(await title()).toBe('First'); // now kept by A
    await call(b.url, 'PATCH', `/v1/spaces/${space}`, { title: 'Second' });
    const until = Date.now() + 10_000;
    let seen = await title();
    while (seen !== 'Second' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await title();
    }
    expect(seen).toBe('Second');
  }, 60_000);
});
