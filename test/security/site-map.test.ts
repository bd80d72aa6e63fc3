import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';

// GET|PUT /_docs/site-map (src/sites/site-map.ts): the keys of a site pushed from a repository.
// Reading needs what reading the site needs, changing it what changing the site's structure
// needs (admin); a stranger learns nothing, not even whether the site exists. Bad bodies are a
// 400 and change nothing.

let s: TestServer;
let org: string;
let site: string;
const url = () => `/_docs/site-map?organizationId=${org}&siteId=${site}`;
const map = { keys: { docs: { type: 'space', id: 'ss1', space: 'sp1', directory: 'docs' } }, text: 'site: {}\n' };
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  site = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Docs' } })).body.id;
});
afterAll(() => s.stop());

describe('/_docs/site-map', () => {
  it('keeps the keys an admin puts, and gives them to a reader of the site', async () => {
    expect((await s.docs('GET', url())).body).toEqual({ keys: {} });
    const put = await s.docs('PUT', url(), { body: map });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const reader = await addUser(s.ctx, org, 'read');
    const r = await s.docs('GET', url(), { token: reader.token });
    expect([r.status, r.body]).toEqual([200, map]);
  });

  it('a reader may not change them (403); a stranger gets 404 and learns nothing', async () => {
    const reader = await addUser(s.ctx, org, 'read');
    expect((await s.docs('PUT', url(), { token: reader.token, body: { keys: {} } })).status).toBe(403);
    const stranger = await addUser(s.ctx);
    for (const m of ['GET', 'PUT'] as const) {
      const r = await s.docs(m, url(), { token: stranger.token, ...(m === 'PUT' ? { body: { keys: {} } } : {}) });
      expect(r.status, m).toBe(404);
      expect(JSON.stringify(r.body)).not.toContain('ss1');
    }
    expect((await s.docs('GET', url(), { token: null })).status).toBe(401);
    expect((await s.docs('GET', url())).body).toEqual(map);
  });

  it('refuses bad bodies (400, nothing changed)', async () => {
    for (const body of [
      null,
      { keys: [] },
      { keys: { '../x': { type: 'space', id: 'a' } } },
      { keys: { a: { type: 'page', id: 'a' } } },
      { keys: { a: { type: 'space', id: '<script>' } } },
      { keys: { a: { type: 'space', id: 'a', directory: 42 } } },
      { keys: {}, text: 'x'.repeat(300 * 1024) },
      { keys: {}, extra: 1 },
      { keys: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, { type: 'space', id: 'a' }])) },
    ]) {
      const r = await s.docs('PUT', url(), { body });
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    expect((await s.docs('GET', url())).body).toEqual(map);
    expect((await s.docs('GET', `/_docs/site-map?organizationId=${org}`)).status).toBe(400);
  });
});
