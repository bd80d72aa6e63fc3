import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureVisitorKey, signingKey, visitorAudience } from '../../src/auth/visitor-keys.js';
import { ManualClock } from '../../src/kernel/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, edit, get, mainOf, page, spaceWith, textOf } from './fixture.js';

// The published read path answers a request it answered since the last commit without reading
// the store (src/published/render/cache.ts, "Whole answers, by request"): only for visitors who
// bring nothing of their own, and never after a commit.

const HOUR = 3_600_000;
// Two minutes into an hour, so that moving the clock by ten minutes stays in the same hour.
const t0 = Math.floor(Date.now() / HOUR) * HOUR + 2 * 60_000;
const clock = new ManualClock(t0);
let s: TestServer;
let call: ReturnType<typeof api>;
let org: string;
let docs: Awaited<ReturnType<typeof spaceWith>>;

beforeAll(async () => {
  s = await startServer({ clock });
  call = api(s);
  org = (await call('GET', '/v1/orgs')).items[0].id;
  docs = await spaceWith(s, org, 'Docs', [page('a', 'Welcome', 'Hello.'), page('b', 'Second', 'Two.')]);
}, 60_000);
afterAll(() => s?.stop());

const newSite = async (title: string, body: object = {}) => {
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title, spaces: [docs.space.id], ...body });
  const o = `/v1/orgs/${org}/sites/${site.id}`;
  return { o, url: (await call('POST', `${o}/publish`)).urls.published.split('?')[0] as string, id: site.id };
};

/** Counts the store reads made while `fn` runs. */
async function readsDuring(fn: () => Promise<unknown>): Promise<number> {
  const store = s.ctx.store;
  const read = store.read.bind(store);
  let n = 0;
  store.read = ((f: any) => (n++, read(f))) as typeof store.read;
  try {
    await fn();
  } finally {
    store.read = read;
  }
  return n;
}

describe('answers kept between commits', () => {
  it('the same request again: the same bytes, no store read; a commit: read again and current', async () => {
    const site = await newSite('Kept');
    // A commit of a background worker between the two requests (on a loaded machine) rightly
    // drops the kept answer: the pair is asked again until none came between them.
    let first: Awaited<ReturnType<typeof get>> | undefined;
    let again: Awaited<ReturnType<typeof get>> | undefined;
    let reads = -1;
    for (let tries = 0; tries < 5 && reads !== 0; tries++) {
      const gen = s.ctx.store.generation!();
      first = await get(s, `${site.url}/second`);
      expect(first.status).toBe(200);
      reads = await readsDuring(async () => (again = await get(s, `${site.url}/second`)));
      if (s.ctx.store.generation!() === gen) break;
    }
    expect(reads).toBe(0);
    expect(again!.text).toBe(first!.text);
    // Another page, or the same with another cookie (a theme), is its own request.
    expect(await readsDuring(() => get(s, `${site.url}/second`, 'other=1'))).toBeGreaterThan(0);

    await edit(s, docs.space.id, [{ operation: 'update_page', page: docs.pages.Second.id, document: { markdown: 'Two, rewritten.' } }]);
    let after: Awaited<ReturnType<typeof get>> | undefined;
    expect(await readsDuring(async () => (after = await get(s, `${site.url}/second`)))).toBeGreaterThan(0);
    expect(textOf(mainOf(after!.doc))).toContain('Two, rewritten.');

    // Unpublishing is a commit too: the next identical request is refused.
    await call('POST', `${site.o}/unpublish`);
    expect((await get(s, `${site.url}/second`)).status).toBe(404);
  });

  it('a visitor with a token is checked on every request: an expired token is refused with nothing committed', async () => {
    const site = await newSite('Members', { visibility: 'visitor-auth' });
    const meta = await s.ctx.store.write((tx) => ensureVisitorKey(tx, s.ctx));
    const token = await new SignJWT({ role: 'reader' })
      .setProtectedHeader({ alg: 'ES256', kid: meta.kid })
      .setAudience(visitorAudience(org))
      .setIssuedAt(Math.floor(t0 / 1000))
      .setExpirationTime(Math.floor(t0 / 1000) + 5 * 60)
      .sign(signingKey(meta));
    const cookie = `docs_visitor_${site.id}=${token}`;
    expect((await get(s, `${site.url}/second`, cookie)).status).toBe(200);
    expect((await get(s, `${site.url}/second`, cookie)).status).toBe(200);
    clock.advance(10 * 60_000); // past the token's expiry, in the same hour, with no commit
    expect((await get(s, `${site.url}/second`, cookie)).status).toBe(404);
    clock.set(new Date(t0).toISOString());
  });
});
