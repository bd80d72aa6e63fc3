import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readVisitorKey, signingKey, siteAudience, visitorAudience } from '../../src/auth/visitor-keys.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, get, page, spaceWith } from '../published/fixture.js';

// Boundary: a visitor token is bound to the organization (or site) it was issued for (`aud`).
// The attack (issue 26, finding 7): any user makes an organization B, pings it for a visitor
// token (role admin in B) and brings it to organization A's visitor-auth site, or to A's
// adaptive site where `visitor.claims.role === "admin"` shows a page.

let s: TestServer;
let call: ReturnType<typeof api>;
let orgA: string;
let members: { url: string; id: string };
let adaptive: { url: string; id: string };
let foreignToken: string;

const cookieOf = (h: Headers) =>
  h
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

async function newSite(title: string, spaceId: string, body: object = {}) {
  const site = await call('POST', `/v1/orgs/${orgA}/sites`, { title, spaces: [spaceId], ...body });
  return { id: site.id as string, url: ((await call('POST', `/v1/orgs/${orgA}/sites/${site.id}/publish`)).urls.published as string).split('?')[0]! };
}

/** A token signed with this server's visitor key (as a backend holding it would make), with `aud` when given. */
async function signed(claims: object, aud?: string) {
  const meta = (await s.ctx.store.read(readVisitorKey))!;
  const jwt = new SignJWT({ ...claims }).setProtectedHeader({ alg: 'ES256', kid: meta.kid }).setIssuedAt().setExpirationTime('1h');
  return (aud ? jwt.setAudience(aud) : jwt).sign(signingKey(meta));
}

beforeAll(async () => {
  s = await startServer();
  call = api(s);
  orgA = (await call('GET', '/v1/orgs')).items[0].id;
  const docs = await spaceWith(s, orgA, 'Docs', [
    page('a', 'Welcome', 'Hello.'),
    page('b', 'Admins Only', 'Secret admin page.', { condition: 'visitor.claims.role === "admin"' }),
  ]);
  members = await newSite('Members Site', docs.space.id, { visibility: 'visitor-auth' });
  adaptive = await newSite('Adaptive Site', docs.space.id);
  await call('PATCH', `/v1/orgs/${orgA}/sites/${adaptive.id}`, { adaptiveContent: { enabled: true } });
  // The attacker: a user of the instance, no member of A, admin of an organization of their own.
  const attacker = await addUser(s.ctx);
  const made = await s.api('POST', '/v1/orgs', { token: attacker.token, body: { title: 'Org B' } });
  expect(made.status).toBe(201);
  foreignToken = (await s.api('POST', `/v1/orgs/${made.body.id}/ping`, { token: attacker.token })).body.gitbookVisitorClaims;
  expect(foreignToken).toMatch(/^ey/);
}, 60_000);
afterAll(() => s?.stop());

describe('visitor tokens are bound to their audience', () => {
  it('a ping token for organization B opens nothing of organization A (visitor-auth site: 404, as without a token)', async () => {
    expect((await get(s, `${members.url}?jwt_token=${foreignToken}`)).status).toBe(404);
    // Kept in a cookie of the site's name by hand: refused the same way.
    expect((await get(s, members.url, `docs_visitor_${members.id}=${foreignToken}`)).status).toBe(404);
    // A's own members' tokens still open it.
    const own = await get(s, `${members.url}?jwt_token=${(await s.api('POST', `/v1/orgs/${orgA}/ping`)).body.gitbookVisitorClaims}`);
    expect(own.status).toBe(302);
    expect((await get(s, members.url, cookieOf(own.headers))).status).toBe(200);
  });

  it("B's claims count for nothing in A's adaptive content: the admin-only page stays hidden", async () => {
    expect((await get(s, `${adaptive.url}/admins-only`)).status).toBe(404);
    expect((await get(s, `${adaptive.url}?jwt_token=${foreignToken}`)).status).toBe(404);
    expect((await get(s, `${adaptive.url}/admins-only`, `docs_visitor_${adaptive.id}=${foreignToken}`)).status).toBe(404);
  });

  it('over the site MCP too: a foreign bearer token is the 404 of a site one may not see', async () => {
    const res = await fetch(`${members.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${foreignToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
  });

  it('a token without aud opens nothing; one for the site or its organization does, one for another site does not', async () => {
    expect((await get(s, `${members.url}?jwt_token=${await signed({ role: 'admin' })}`)).status).toBe(404);
    expect((await get(s, `${members.url}?jwt_token=${await signed({ role: 'admin' }, siteAudience(adaptive.id))}`)).status).toBe(404);
    expect((await get(s, `${members.url}?jwt_token=${await signed({ role: 'admin' }, siteAudience(members.id))}`)).status).toBe(302);
    expect((await get(s, `${members.url}?jwt_token=${await signed({ role: 'admin' }, visitorAudience(orgA))}`)).status).toBe(302);
  });
});
