import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertToken, tokenUsesWritten } from '../../src/auth/tokens.js';
import { ManualClock } from '../../src/kernel/clock.js';
import { newToken } from '../../src/kernel/ids.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';

// GET /v1/orgs/{id} and /v1/spaces/{id} (operations that keep their answer, server/answers.ts)
// and authentication (src/auth/tokens.ts) are answered from what the last identical request
// found, until the store's next commit. What must still hold on the very next request: a revoked
// token, a removed member, a changed row, an expired token (no commit: the clock moved).

const clock = new ManualClock(Date.now());
let s: TestServer;
let org: string;
let space: string;
/** Store reads made by `fn` (the server and the test share this process). */
let reads = 0;

beforeAll(async () => {
  s = await startServer({ clock });
  const read = s.ctx.store.read.bind(s.ctx.store);
  s.ctx.store.read = ((fn: Parameters<typeof read>[0]) => (reads++, read(fn))) as typeof read;
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Kept' } })).body.id;
});
afterAll(() => s.stop());

/** The reads of one request. */
async function readsOf(path: string, token?: string) {
  const before = reads;
  const r = await s.api('GET', path, { token });
  return { status: r.status, body: r.body, reads: reads - before };
}

/**
 * The same GET twice with no commit in between: the second reads nothing. A token's first request
 * records its use (a commit), and the server's workers may read and commit at any time (their
 * passes after start): a pair one of those fell into is asked again.
 */
async function warm(path: string, token?: string) {
  for (let i = 0; ; i++) {
    await tokenUsesWritten();
    const generation = s.ctx.store.generation!();
    const first = await readsOf(path, token);
    const again = await readsOf(path, token);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body).toEqual(first.body);
    // The workers' reads count too: a pair one fell into is asked again (without kept answers, none has no read).
    if ((s.ctx.store.generation!() === generation && again.reads === 0) || i === 20) return expect(again.reads).toBe(0);
  }
}

describe('answers kept until the next commit', () => {
  it('the same GET by the same token again reads nothing: neither the token nor the space', async () => {
    for (const path of [`/v1/orgs/${org}`, `/v1/spaces/${space}`]) await warm(path);
  });

  it('a change is shown on the next request', async () => {
    expect((await readsOf(`/v1/spaces/${space}`)).body.title).toBe('Kept');
    expect((await s.api('PATCH', `/v1/spaces/${space}`, { body: { title: 'Changed' } })).status).toBe(200);
    expect((await readsOf(`/v1/spaces/${space}`)).body.title).toBe('Changed');
  });

  it('another token of another user gets its own answer, not the one kept', async () => {
    expect((await readsOf(`/v1/spaces/${space}`)).status).toBe(200);
    const stranger = await addUser(s.ctx);
    expect((await readsOf(`/v1/spaces/${space}`, stranger.token)).status).toBe(404);
    expect((await readsOf(`/v1/orgs/${org}`, stranger.token)).status).toBe(404);
  });

  it('a removed member is refused on the next request', async () => {
    const m = await addUser(s.ctx, org, 'read');
    for (const path of [`/v1/orgs/${org}`, `/v1/spaces/${space}`]) await warm(path, m.token);
    expect((await s.api('DELETE', `/v1/orgs/${org}/members/${m.userId}`)).status).toBeLessThan(300);
    expect((await readsOf(`/v1/orgs/${org}`, m.token)).status).toBe(404);
    expect((await readsOf(`/v1/spaces/${space}`, m.token)).status).toBe(404);
  });

  it('a revoked token is refused on the next request', async () => {
    const m = await addUser(s.ctx, org, 'read');
    await warm(`/v1/spaces/${space}`, m.token);
    const id = (await s.docs('GET', '/_docs/tokens', { token: m.token })).body.items[0].id;
    expect((await s.docs('DELETE', `/_docs/tokens/${id}`, { token: m.token })).status).toBeLessThan(300);
    expect((await readsOf(`/v1/spaces/${space}`, m.token)).status).toBe(401);
    expect((await readsOf(`/v1/orgs/${org}`, m.token)).status).toBe(401);
  });

  it('an expired token is refused on the next request, with nothing committed in between', async () => {
    const m = await addUser(s.ctx, org, 'read');
    const expiring = newToken();
    await s.ctx.store.write((tx) => insertToken(tx, expiring, m.userId, 'expiring', clock.now(), new Date(clock.now().getTime() + 60_000).toISOString()));
    await warm(`/v1/spaces/${space}`, expiring);
    clock.advance(61_000);
    const gen = s.ctx.store.generation!();
    const refused = await readsOf(`/v1/spaces/${space}`, expiring);
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toContain('expired');
    expect(s.ctx.store.generation!()).toBe(gen);
  });
});
