import { SignJWT } from 'jose';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readVisitorKey, signingKey, visitorAudience } from '../../src/auth/visitor-keys.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, byLabel, get, h1, links, mainOf, page, spaceWith, textOf } from './fixture.js';

// Who may see a published site: unpublished 404; unlisted sites anyone (not indexed); share-link sites only with the
// key of an active share link (?share=KEY, then a cookie); visitor-auth sites only with a valid
// signed visitor token; adaptive content by the claims of the visitor's token.

let s: TestServer;
let call: ReturnType<typeof api>;
let org: string;
let docs: Awaited<ReturnType<typeof spaceWith>>;

beforeAll(async () => {
  s = await startServer();
  call = api(s);
  org = (await call('GET', '/v1/orgs')).items[0].id;
  docs = await spaceWith(s, org, 'Docs', [
    page('a', 'Welcome', 'Hello.'),
    page('b', 'Admins Only', 'Secret admin page.', { condition: 'visitor.claims.role === "admin"' }),
  ]);
}, 60_000);
afterAll(() => s?.stop());

const newSite = async (title: string, body: object = {}) => {
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title, spaces: [docs.space.id], ...body });
  const o = `/v1/orgs/${org}/sites/${site.id}`;
  return { o, url: (await call('POST', `${o}/publish`)).urls.published.split('?')[0] as string, id: site.id };
};
const cookieOf = (h: Headers) =>
  h
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

/** A visitor token for the member behind `token`, from the ping operation (claims: organization, role, email, name). */
const pingToken = async (token: string) => (await s.api('POST', `/v1/orgs/${org}/ping`, { token })).body.gitbookVisitorClaims as string;

/** A token signed with this data directory's visitor key, with any claims (as a backend holding the key would make). */
async function signed(claims: object, expiresIn = '1h') {
  const meta = (await s.ctx.store.read(readVisitorKey))!;
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: meta.kid })
    .setAudience(visitorAudience(org))
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(signingKey(meta));
}

describe('share keys', () => {
  for (const visibility of ['share-link'] as const) {
    it(`${visibility}: 404 without a key or with a forged one; ?share=KEY sets a cookie and drops the key from the address`, async () => {
      const site = await newSite(`Shared ${visibility}`, { visibility });
      const link = await call('POST', `${site.o}/share-links`, { name: 'Reviewers' });
      const key = new URL(link.urls.published).searchParams.get('share')!;
      expect((await get(s, site.url)).status).toBe(404);
      const forged = await get(s, `${site.url}?share=${'x'.repeat(40)}`);
      expect(forged.status).toBe(404);
      expect(forged.text).not.toContain(`Shared ${visibility}`);
      const entered = await get(s, `${site.url}/welcome?share=${key}&keep=1`);
      expect(entered.status).toBe(302);
      expect(entered.headers.get('location')).toBe(`${new URL(site.url).pathname}/welcome?keep=1`);
      const setCookie = entered.headers.get('set-cookie')!;
      expect(setCookie).toMatch(/HttpOnly/);
      expect(setCookie).toContain(`Path=${new URL(site.url).pathname}`);
      const cookie = cookieOf(entered.headers);
      const page = await get(s, `${site.url}/welcome`, cookie);
      expect(page.status).toBe(200);
      expect(h1(page.doc)).toBe('Welcome');
      expect((await get(s, `${site.url}/robots.txt`, cookie)).text).toBe('User-agent: *\nDisallow: /\n');
      // A link deactivated: its key opens nothing any more, cookie or not.
      await call('PATCH', `${site.o}/share-links/${link.id}`, { active: false });
      expect((await get(s, `${site.url}/welcome`, cookie)).status).toBe(404);
    });
  }

  it('unlisted sites open to anyone, without a key, and are not indexed (API.md: anyone, not indexed)', async () => {
    const site = await newSite('Quiet Site', { visibility: 'unlisted' });
    const page = await get(s, `${site.url}/welcome`);
    expect(page.status).toBe(200);
    expect(h1(page.doc)).toBe('Welcome');
    expect(page.text).toMatch(/<meta name="robots" content="noindex/);
    expect((await get(s, `${site.url}/robots.txt`)).text).toBe('User-agent: *\nDisallow: /\n');
  });

  it('public sites need no key (a bad one is ignored)', async () => {
    const site = await newSite('Open Site');
    expect((await get(s, site.url)).status).toBe(200);
    const r = await get(s, `${site.url}?share=nonsense`);
    expect(r.status).toBe(302);
    expect(r.headers.get('set-cookie')).toBeNull();
  });
});

describe('visitor tokens', () => {
  it('visitor-auth: 404 without a token, with a forged, expired or foreign one; a ping token opens it', async () => {
    const site = await newSite('Members Site', { visibility: 'visitor-auth' });
    expect((await get(s, site.url)).status).toBe(404);
    const token = await pingToken(s.token);
    const foreign = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const forged = await new SignJWT({ role: 'admin' }).setProtectedHeader({ alg: 'ES256' }).setExpirationTime('1h').sign(foreign);
    const expired = await signed({ role: 'admin' }, '-1m');
    for (const bad of [forged, expired, token.slice(0, -4) + 'AAAA', 'not.a.jwt']) expect((await get(s, `${site.url}?jwt_token=${bad}`)).status).toBe(404);
    const entered = await get(s, `${site.url}?jwt_token=${token}`);
    expect(entered.status).toBe(302);
    expect((await get(s, site.url, cookieOf(entered.headers))).status).toBe(200);
  });
});

describe('adaptive content', () => {
  it('sections, site spaces and pages with conditions show only to visitors whose claims satisfy them', async () => {
    const beta = await spaceWith(s, org, 'Beta Space', [page('x', 'Beta Notes', 'For beta testers.')]);
    const pro = await spaceWith(s, org, 'Pro Space', [page('y', 'Pro Guide', 'For pro customers.')]);
    const site = await newSite('Adaptive Site');
    await call('PATCH', site.o, { adaptiveContent: { enabled: true } });
    await call('PUT', `${site.o}/adaptive-schema`, {
      jsonSchema: {
        type: 'object',
        properties: {
          isPro: { type: 'boolean', description: 'A paying customer' },
          unsigned: {
            type: 'object',
            description: 'Unsigned claims of the site visitor.',
            properties: { beta: { type: 'boolean', description: 'Beta tester' } },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
    });
    // The site's only site space becomes the default section; a "Pro" section with a condition; a hidden beta site space opened by an unsigned claim.
    const main = (await call('GET', `${site.o}/sections`)).items;
    const proSection = await call('POST', `${site.o}/sections`, { spaceId: pro.space.id, title: 'Pro' });
    await call('PATCH', `${site.o}/sections/${proSection.id}`, { condition: 'visitor.claims.isPro === true' });
    const betaSS = await call('POST', `${site.o}/site-spaces`, { spaceId: beta.space.id, ...(main.length ? { sectionId: main[0].id } : {}) });
    await call('PATCH', `${site.o}/site-spaces/${betaSS.id}`, { hidden: true, condition: 'visitor.claims.unsigned.beta == true' });

    const nav = async (cookie?: string) => {
      const r = await get(s, site.url, cookie);
      return { sections: links(byLabel(r.doc, 'Sections') ?? {}).map((l) => l.text), pages: links(byLabel(r.doc, 'Pages')).map((l) => l.text) };
    };
    const enter = async (query: string) => cookieOf((await get(s, `${site.url}?${query}`)).headers);

    // Anonymous: no Pro section, no admin page; the Pro section's address is a 404; so is the admin page.
    expect(await nav()).toEqual({ sections: [], pages: ['Welcome'] });
    expect((await get(s, `${site.url}/pro`)).status).toBe(404);
    expect((await get(s, `${site.url}/admins-only`)).status).toBe(404);

    // The owner (role admin, from ping) sees the admin page; a read member does not.
    const owner = await enter(`jwt_token=${await pingToken(s.token)}`);
    expect((await nav(owner)).pages).toEqual(['Welcome', 'Admins Only']);
    expect(textOf(mainOf((await get(s, `${site.url}/admins-only`, owner)).doc))).toContain('Secret admin page.');
    const reader = await enter(`jwt_token=${await pingToken((await addUser(s.ctx, org, 'read')).token)}`);
    expect((await nav(reader)).pages).toEqual(['Welcome']);
    expect((await get(s, `${site.url}/admins-only`, reader)).status).toBe(404);

    // A pro visitor sees the Pro section.
    const proVisitor = await enter(`jwt_token=${await signed({ isPro: true })}`);
    expect((await nav(proVisitor)).sections).toEqual(['Adaptive Site', 'Pro']);
    expect(h1((await get(s, `${site.url}/pro`, proVisitor)).doc)).toBe('Pro Guide');

    // The hidden beta site space: never listed, answers only for ?visitor.beta=true (an unsigned claim the schema declares).
    expect((await get(s, `${site.url}/beta-space`)).status).toBe(404);
    const tester = await enter('visitor.beta=true');
    const betaPage = await get(s, `${site.url}/beta-space`, tester);
    expect(h1(betaPage.doc)).toBe('Beta Notes');
    expect(byLabel(betaPage.doc, 'Variants')).toBeUndefined();
    // Claims the schema does not declare as unsigned are ignored.
    const sneaky = await enter('visitor.isPro=true');
    expect((await nav(sneaky)).sections).toEqual([]);
  });

  it('conditions are evaluated, never run: anything outside the grammar is false', async () => {
    const { satisfies } = await import('../../src/urls/site/conditions.js');
    const v = { claims: { role: 'admin', tags: ['a', 'b'], n: 3, unsigned: { beta: true } } };
    expect(satisfies('visitor.claims.role === "admin" && visitor.claims.n > 2', v)).toBe(true);
    expect(satisfies('visitor.claims.tags.includes("b") || false', v)).toBe(true);
    expect(satisfies('!visitor.claims.unsigned.beta', v)).toBe(false);
    expect(satisfies('visitor.claims["role"] != "x"', v)).toBe(true);
    expect(satisfies('visitor.claims.n > "2"', v)).toBe(false);
    (globalThis as any).__pwned = false;
    for (const evil of [
      'globalThis.__pwned = true',
      'process.exit(1)',
      'visitor.claims.constructor.constructor("return 1")()',
      'visitor.claims.role.length > 0',
      '(() => 1)()',
      '1; 2',
      'visitor.claims.__proto__',
    ]) {
      expect(satisfies(evil, v), evil).toBe(false);
    }
    expect((globalThis as any).__pwned).toBe(false);
  });
});
