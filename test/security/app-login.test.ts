import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

// Boundary: the app views' sign-in (`/o/login`, the `docs_session` cookie). The attacks (issue
// 26, finding 9): 300 concurrent wrong tokens to POST /o/login, or as the session cookie on
// GET /o, were all answered 401, never 429, while /v1 limits the same burst; and a page on
// another origin could post the form and sign its visitor in as the attacker (login CSRF).
// Now one failed-authentication limiter covers /v1, /mcp, /_docs, /o/login and session cookies;
// the form is accepted only from this server's own pages; each sign-in makes a new session id.

let s: TestServer | undefined;
afterEach(async () => {
  await s?.stop();
  s = undefined;
});

const form = (token: string, headers: Record<string, string> = {}) =>
  fetch(`${s!.url}/o/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: s!.url, ...headers },
    body: new URLSearchParams({ token, next: '/o' }),
  });
const sessionOf = (r: Response) =>
  r.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('docs_session='));
const home = (cookie?: string) => fetch(`${s!.url}/o`, { redirect: 'manual', headers: cookie ? { cookie } : {} });

async function burst(n: number, one: (i: number) => Promise<Response>) {
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => one(i)));
  const statuses = answers.map((r) => r.status);
  return {
    answers,
    401: statuses.filter((x) => x === 401).length,
    429: statuses.filter((x) => x === 429).length,
    other: statuses.filter((x) => x !== 401 && x !== 429),
  };
}

// The limit: bursts of 20 failures per address, 10/s sustained (server/rate-limit.ts); a burst
// of 300 takes a second or two here, so up to about 20 + 10/s of it may be checked (401).

describe('one failed-authentication limiter', () => {
  it('300 concurrent wrong tokens to POST /o/login: the burst passes, then 429 with Retry-After; /v1 is limited for that address too', async () => {
    s = await startServer();
    expect((await s.api('GET', '/v1/user')).status).toBe(200); // a token seen to succeed
    const got = await burst(300, (i) => form(`gb_api_wrong_${i}`));
    expect(got.other).toEqual([]);
    expect(got[401]).toBeLessThanOrEqual(60);
    expect(got[429]).toBeGreaterThanOrEqual(240);
    const limited = got.answers.find((r) => r.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(sessionOf(limited)).toBeUndefined();
    expect(await limited.text()).toMatch(/Too many failed sign-ins/);
    // The same limiter: new wrong tokens on /v1 from this address are mostly not even checked.
    const v1 = await burst(100, (i) => fetch(`${s!.url}/v1/user`, { headers: { authorization: `Bearer gb_api_wrong_v1_${i}` } }));
    expect(v1[429]).toBeGreaterThanOrEqual(60);
    // A token that succeeded before keeps working (failures are limited, not valid requests).
    expect((await s.api('GET', '/v1/user')).status).toBe(200);
  });

  it('300 concurrent wrong session cookies on GET /o: 429 past the burst', async () => {
    s = await startServer();
    const got = await burst(300, (i) => home(`docs_session=forged${i}`));
    expect(got.other).toEqual([]);
    expect(got[401]).toBeLessThanOrEqual(60);
    expect(got[429]).toBeGreaterThanOrEqual(240);
    // No cookie at all is not a guess: the sign-in form, 401.
    expect((await home()).status).toBe(401);
  });

  it('wrong tokens on /v1 limit the sign-in form of the same address', async () => {
    s = await startServer();
    await burst(40, (i) => fetch(`${s!.url}/v1/user`, { headers: { authorization: `Bearer gb_api_guess_${i}` } }));
    expect((await form('gb_api_guess_form')).status).toBe(429);
  });
});

describe('the sign-in form is accepted only from this server', () => {
  it('another Origin, an opaque one, or neither Origin nor Referer: 403 and no session; its own origin or Referer: signed in', async () => {
    s = await startServer();
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: `http://evil.example:${s.port}` },
      { origin: '', referer: 'https://evil.example/page' },
    ]) {
      const clean: Record<string, string> = Object.fromEntries(Object.entries(headers).filter(([, v]) => v));
      const r = await fetch(`${s.url}/o/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...clean },
        body: new URLSearchParams({ token: s.token }),
      });
      expect(r.status, JSON.stringify(clean)).toBe(403);
      expect(sessionOf(r)).toBeUndefined();
    }
    const bare = await fetch(`${s.url}/o/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: s.token }),
    });
    expect(bare.status).toBe(403);
    expect(await bare.text()).toMatch(/Origin \(or Referer\)/);
    expect((await form(s.token)).status).toBe(303);
    const byReferer = await fetch(`${s.url}/o/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `${s.url}/o/login?next=/o` },
      body: new URLSearchParams({ token: s.token }),
    });
    expect(byReferer.status).toBe(303);
  });
});

describe('sign-in rotates the session', () => {
  it('the cookie holds a new random id at each sign-in, never the token; the previous (or a planted) cookie is invalid after it', async () => {
    s = await startServer();
    const first = sessionOf(await form(s.token))!;
    expect(first).toMatch(/^docs_session=[A-Za-z0-9_-]{43}$/);
    expect(first).not.toContain(s.token);
    expect((await home(first)).status).toBe(200);
    // Signing in again from the same browser: a new id, and the old one is over.
    const second = sessionOf(await form(s.token, { cookie: first }))!;
    expect(second).not.toBe(first);
    expect((await home(second)).status).toBe(200);
    expect((await home(first)).status).toBe(401);
    // A cookie planted before sign-in (session fixation) is not what the sign-in keeps.
    const planted = 'docs_session=chosen-by-the-attacker';
    const third = sessionOf(await form(s.token, { cookie: planted }))!;
    expect(third).not.toBe(planted);
    expect((await home(planted)).status).toBe(401);
    // Signing out ends the session on the server, not only in the browser.
    await fetch(`${s.url}/o/logout`, { redirect: 'manual', headers: { cookie: third } });
    expect((await home(third)).status).toBe(401);
    // The token itself as a cookie (what the cookie used to hold) opens nothing.
    expect((await home(`docs_session=${s.token}`)).status).toBe(401);
  });
});
