import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitBookAPI } from 'gitbook-api-latest';
import { ManualClock } from '../../src/kernel/clock.js';
import { docs } from '../helpers/cli.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';

// createUserNotificationsToken (docs/manual/access.md#notifications-tokens): a one-hour scoped
// token that reads its own user (getAuthenticatedUser) and nothing else; revocable like any token;
// a scoped token cannot mint one.

let s: TestServer;
let org: string;
const clock = new ManualClock(Date.parse('2026-11-26T10:00:00.000Z'));
beforeAll(async () => {
  s = await startServer({ clock });
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s?.stop());

describe('notifications tokens', () => {
  it('reads its own user, and nothing else, for an hour', async () => {
    const member = await addUser(s.ctx, org, 'admin');
    const r = await s.api('POST', '/v1/user/notifications/token', { token: member.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ token: expect.stringMatching(/^gb_ntf_/) });
    const token = r.body.token;
    expect((await s.api('GET', '/v1/user', { token })).body).toMatchObject({ id: member.userId });
    // Whatever its user may do otherwise (an admin): every other operation is refused.
    const spaces = await s.api('GET', `/v1/orgs/${org}/spaces`, { token });
    expect([spaces.status, spaces.body.error.message]).toEqual([403, expect.stringContaining('not open to a notifications token')]);
    expect((await s.api('POST', `/v1/orgs/${org}/spaces`, { token, body: { title: 'No' } })).status).toBe(403);
    // It cannot mint another one (a scoped token never extends itself), nor reach the /_docs routes.
    expect((await s.api('POST', '/v1/user/notifications/token', { token })).status).toBe(403);
    expect((await s.docs('POST', '/_docs/tokens', { token, body: { label: 'escape' } })).status).toBe(403);
    clock.advance(60 * 60 * 1000 + 1);
    expect((await s.api('GET', '/v1/user', { token })).status).toBe(401);
  });

  it('through the official 0.202.0 client and the CLI', async () => {
    const api: any = new GitBookAPI({ endpoint: s.url, authToken: s.token });
    const { token } = (await api.user.createUserNotificationsToken()).data;
    const own: any = new GitBookAPI({ endpoint: s.url, authToken: token });
    expect((await own.user.getAuthenticatedUser()).data.id).toBe((await s.api('GET', '/v1/user')).body.id);
    const out = await docs(['users', 'notifications-token', '--jq', '.token'], { DOCS_API_URL: s.url, DOCS_TOKEN: s.token });
    expect([out.status, out.stdout]).toEqual([0, expect.stringMatching(/^gb_ntf_\w+\n$/)]);
  });
});
