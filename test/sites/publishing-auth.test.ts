import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { runBoth } from '../helpers/parity.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { api, get, h1, page, spaceWith } from '../published/fixture.js';

// A site's publishing auth (docs/manual/site-delivery.md#publishing-auth): the private key a
// sign-in backend signs visitor tokens with (HS256), regenerated to invalidate every token signed
// with the old one, and the fallback URL visitors without a valid token are sent to.

let s: TestServer;
let call: ReturnType<typeof api>;
let org: string;
let spaceId: string;
beforeAll(async () => {
  s = await startServer();
  call = api(s);
  org = (await call('GET', '/v1/orgs')).items[0].id;
  spaceId = (await spaceWith(s, org, 'Members', [page('a', 'Welcome', 'For members.')])).space.id;
}, 60_000);
afterAll(() => s?.stop());

const hs256 = (key: string, claims: object = {}, exp = '1h') =>
  new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(exp).sign(new TextEncoder().encode(key));

async function newSite(title: string) {
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title, spaces: [spaceId], visibility: 'visitor-auth' });
  const o = `/v1/orgs/${org}/sites/${site.id}`;
  return { o, id: site.id as string, url: (await call('POST', `${o}/publish`)).urls.published.split('?')[0] as string };
}

describe('publishing auth over HTTP', () => {
  it('a token signed with the site key opens the site; after regenerate the same token is refused, a new one works', async () => {
    const site = await newSite('Key site');
    const first = await s.api('GET', `${site.o}/publishing/auth`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ object: 'publishing-auth', backend: 'custom', privateKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    // The same key on every read until regenerated.
    expect((await s.api('GET', `${site.o}/publishing/auth`)).body.privateKey).toBe(first.body.privateKey);

    const token = await hs256(first.body.privateKey, { role: 'member' });
    expect((await get(s, site.url)).status).toBe(404);
    const entered = await get(s, `${site.url}/welcome?jwt_token=${token}`);
    expect(entered.status).toBe(302);
    const cookie = entered.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const seen = await get(s, `${site.url}/welcome`, cookie);
    expect(seen.status).toBe(200);
    expect(h1(seen.doc)).toBe('Welcome');
    // A token signed with another key, or expired, opens nothing.
    expect((await get(s, `${site.url}/welcome?jwt_token=${await hs256('another-key-entirely-000000000000000')}`)).status).toBe(404);
    expect((await get(s, `${site.url}/welcome?jwt_token=${await hs256(first.body.privateKey, {}, '-1m')}`)).status).toBe(404);
    // The key of one site opens no other site.
    const other = await newSite('Other key site');
    expect((await get(s, `${other.url}/welcome?jwt_token=${token}`)).status).toBe(404);

    const regenerated = await s.api('POST', `${site.o}/publishing/auth/regenerate`);
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.privateKey).not.toBe(first.body.privateKey);
    expect((await get(s, `${site.url}/welcome`, cookie)).status).toBe(404);
    expect((await get(s, `${site.url}/welcome?jwt_token=${token}`)).status).toBe(404);
    expect((await get(s, `${site.url}/welcome?jwt_token=${await hs256(regenerated.body.privateKey)}`)).status).toBe(302);
  });

  it('the fallback URL: visitors without a valid token are sent to sign in there, with where they were going', async () => {
    const site = await newSite('Backend site');
    const set = await s.api('PATCH', `${site.o}/publishing/auth`, { body: { backend: 'custom', fallbackURL: 'https://auth.example.com/login?app=docs' } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.fallbackURL).toBe('https://auth.example.com/login?app=docs');
    const r = await get(s, `${site.url}/welcome?x=1`);
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe('https://auth.example.com/login?app=docs&location=%2Fwelcome%3Fx%3D1');
    // A bad token is sent there too (its cookie cleared).
    const bad = await get(s, `${site.url}/welcome?jwt_token=not.a.jwt`);
    expect(bad.headers.get('location')).toMatch(/^https:\/\/auth\.example\.com\/login\?app=docs&location=/);
    // A public site never redirects, whatever its settings.
    await call('PATCH', site.o, { visibility: 'public' });
    expect((await get(s, `${site.url}/welcome`)).status).toBe(200);
    await call('PATCH', site.o, { visibility: 'visitor-auth' });
    // null unsets it: the 404 again.
    const unset = await s.api('PATCH', `${site.o}/publishing/auth`, { body: { backend: 'custom', fallbackURL: null } });
    expect(unset.body.fallbackURL).toBeUndefined();
    expect((await get(s, `${site.url}/welcome`)).status).toBe(404);
  });

  it('refuses bad input (400, nothing changed) and non-admins (403)', async () => {
    const site = await newSite('Guarded site');
    const before = (await s.api('GET', `${site.o}/publishing/auth`)).body;
    for (const [body, message] of [
      [{ backend: 'custom', fallbackURL: 'javascript:alert(1)' }, 'fallbackURL: must be an http or https URL, not javascript:'],
      [{ backend: 'custom', fallbackURL: 'https://u:p@auth.example.com/' }, 'fallbackURL: must not carry a user name or password'],
      [
        { backend: 'integration' },
        'backend: this server authenticates visitors with a custom backend only (no integration provides visitor authentication here)',
      ],
    ] as const) {
      const r = await s.api('PATCH', `${site.o}/publishing/auth`, { body });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.error.message).toBe(message);
    }
    expect((await s.api('GET', `${site.o}/publishing/auth`)).body).toEqual(before);
    const editor = await addUser(s.ctx, org, 'edit');
    expect((await s.api('GET', `${site.o}/publishing/auth`, { token: editor.token })).status).toBe(403);
    expect((await s.api('POST', `${site.o}/publishing/auth/regenerate`, { token: editor.token })).status).toBe(403);
    expect((await s.api('GET', `${site.o}/publishing/auth`)).body).toEqual(before);
  });
});

async function cliScenario(env: Record<string, string>) {
  const run = async (args: string[], code = 0) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(code);
    return r;
  };
  const space = (await run(['spaces', 'create', '--title', 'G', '--json'])).json;
  const site = (await run(['sites', 'create', '--title', 'Auth site', '--spaces', space.id, '--json'])).json;
  const shown = (await run(['sites', 'auth', 'get', site.id, '--json'])).json;
  const set = await run(['sites', 'auth', 'update', site.id, '--backend', 'custom', '--fallback-url', 'https://auth.example.com/login']);
  expect(set.stdout).toContain('https://auth.example.com/login');
  const bad = await run(['sites', 'auth', 'update', site.id, '--backend', 'custom', '--fallback-url', 'ftp://x'], 2);
  expect(bad.stderr).toContain('--fallback-url: must be an http or https URL, not ftp:');
  const regen = (await run(['sites', 'auth', 'regenerate', site.id, '--yes', '--json'])).json;
  expect(regen.privateKey).not.toBe(shown.privateKey);
  return [shown.backend, regen.fallbackURL];
}

describe('docs sites auth', () => {
  it('in process and over HTTP, the same', async () => {
    const local = await cliScenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_cli' });
    const remote = await cliScenario({ DOCS_API_URL: s.url, DOCS_TOKEN: s.token });
    expect(local).toEqual(['custom', 'https://auth.example.com/login']);
    expect(remote).toEqual(local);
  });

  it('transport parity of the operations', async () => {
    const { local, remote } = await runBoth(s, async (t) => {
      const out: unknown[] = [];
      const organizationId = ((await t.call('createOrganization', { body: { title: 'Parity auth' } })).body as any).id;
      const site = (await t.call('createSite', { path: { organizationId }, body: { title: 'Parity' } })).body as any;
      const p = { organizationId, siteId: site.id };
      out.push(Object.keys((await t.call('getSitePublishingAuthById', { path: p })).body as object));
      const { privateKey: _k, ...updated } = (
        await t.call('updateSitePublishingAuthById', { path: p, body: { backend: 'custom', fallbackURL: 'https://a.example.com/' } })
      ).body as any;
      out.push(updated);
      out.push(Object.keys((await t.call('regenerateSitePublishingAuthById', { path: p })).body as object));
      try {
        await t.call('updateSitePublishingAuthById', { path: p, body: { backend: 'integration' } });
      } catch (e: any) {
        out.push(e.kind, e.message);
      }
      return out;
    });
    expect(remote).toEqual(local);
  });
});
