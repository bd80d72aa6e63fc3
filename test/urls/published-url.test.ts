import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { readVisitorKey, signingKey, visitorAudience } from '../../src/auth/visitor-keys.js';
import { Tokens } from '../../src/auth/tokens.js';
import { PUBLISHED_TOKENS_MAX } from '../../src/auth/scope.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, page, spaceWith } from '../published/fixture.js';

// getPublishedContentByUrl / resolvePublishedContentByUrl (docs/manual/sites.md#published-urls):
// a URL of a site published by this server resolved as its visitor sees it, through HTTP (every
// answer checked against both specs by `s.api`).

let s: TestServer;
let call: ReturnType<typeof api>;
let org: string;
let guides: Awaited<ReturnType<typeof spaceWith>>;
let v2: Awaited<ReturnType<typeof spaceWith>>;
let site: any;
let apiSection: any;
let published: string;
const q = (u: string) => encodeURIComponent(u);
const byUrl = (u: string, token?: string, more = '') => s.api('GET', `/v1/urls/published?url=${q(u)}${more}`, token ? { token } : {});

beforeAll(async () => {
  s = await startServer();
  call = api(s);
  org = (await call('GET', '/v1/orgs')).items[0].id;
  guides = await spaceWith(s, org, 'Guides', [
    page('start', 'Getting Started', 'Welcome.'),
    page('adv', 'Advanced', 'Advanced things.'),
    page('deep', 'Deep Dive', 'Deeper.', { into: 'adv' }),
    page('pro', 'Pro Only', 'For pro visitors.', { condition: 'visitor.claims.unsigned.plan === "pro"' }),
  ]);
  v2 = await spaceWith(s, org, 'API v2', [page('ref', 'Reference', 'The v2 reference.')]);
  site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Lookup Docs' });
  const o = `/v1/orgs/${org}/sites/${site.id}`;
  await call('POST', `${o}/sections`, { spaceId: guides.space.id, title: 'Guides' });
  apiSection = await call('POST', `${o}/sections`, { spaceId: v2.space.id, title: 'API' });
  await call('PATCH', o, { adaptiveContent: { enabled: true } });
  await call('PUT', `${o}/adaptive-schema`, {
    jsonSchema: {
      type: 'object',
      properties: {
        unsigned: {
          type: 'object',
          description: 'Unsigned claims of the site visitor.',
          properties: { plan: { type: 'string', description: 'Plan' } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
  });
  site = await call('POST', `${o}/publish`);
  published = site.urls.published;
}, 90_000);
afterAll(() => s?.stop());

describe('getPublishedContentByUrl', () => {
  it('resolves a page of the default section: site, section, site space, space, revision, path, a token reading the space as the caller', async () => {
    const r = await byUrl(`${published}/advanced/deep-dive`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const structure = (await call('GET', `/v1/orgs/${org}/sites/${site.id}/structure`)).structure;
    const section = structure[0];
    expect(r.body).toMatchObject({
      site: site.id,
      siteSection: section.id,
      siteSpace: section.siteSpaces[0].id,
      space: guides.space.id,
      organization: org,
      pathname: 'advanced/deep-dive',
      complete: true,
      canonicalUrl: `${published}/advanced/deep-dive`,
      siteBasePath: `${new URL(published).pathname}/`,
      basePath: `${new URL(published).pathname}/`,
    });
    const space = await call('GET', `/v1/spaces/${guides.space.id}`);
    expect(r.body.revision).toBe(space.revision);
    expect(r.body.shareKey).toBeUndefined();
    expect(r.body.contextId).toBeUndefined();
    // The token reads that space (as the caller), and nothing else.
    expect(r.body.apiToken).toMatch(/^gb_pub_/);
    const read = await s.api('GET', `/v1/spaces/${guides.space.id}/content`, { token: r.body.apiToken });
    expect(read.status).toBe(200);
    expect((await s.api('GET', `/v1/spaces/${v2.space.id}`, { token: r.body.apiToken })).status).toBe(403);
    expect((await s.api('POST', `/v1/orgs/${org}/spaces`, { token: r.body.apiToken, body: { title: 'No' } })).status).toBe(403);
    expect((await s.api('GET', `/v1/urls/published?url=${q(published)}`, { token: r.body.apiToken })).status).toBe(403);
  });

  it('another section, the site root, and the POST form agree', async () => {
    const r = await byUrl(`${published}/api/reference`);
    expect(r.body).toMatchObject({ siteSection: apiSection.id, space: v2.space.id, pathname: 'reference', basePath: `${new URL(published).pathname}/api/` });
    const root = await byUrl(published);
    expect(root.body).toMatchObject({ space: guides.space.id, pathname: '' });
    const post = await s.api('POST', '/v1/urls/published', { body: { url: `${published}/api/reference` } });
    expect(post.status).toBe(200);
    const { apiToken: _a, ...a } = r.body;
    const { apiToken: _b, ...b } = post.body;
    expect(b).toEqual(a);
  });

  it("a page behind a condition: 404 without the claim, found with the visitor's unsigned claims (URL or body)", async () => {
    expect((await byUrl(`${published}/pro-only`)).status).toBe(404);
    expect((await byUrl(`${published}/pro-only?visitor.plan=pro`)).body.pathname).toBe('pro-only');
    const post = await s.api('POST', '/v1/urls/published', { body: { url: `${published}/pro-only`, visitor: { unsignedClaims: { plan: 'pro' } } } });
    expect(post.status, JSON.stringify(post.body)).toBe(200);
    expect(post.body.pathname).toBe('pro-only');
    const other = await s.api('POST', '/v1/urls/published', { body: { url: `${published}/pro-only`, visitor: { unsignedClaims: { plan: 'free' } } } });
    expect(other.status).toBe(404);
  });

  it('redirects: a moved page to its new address, a site redirect to its target', async () => {
    const moved = await spaceWith(s, org, 'Moving', [page('old', 'Old Name', 'Text.')]);
    const ms = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Moves', spaces: [moved.space.id] });
    const url = (await call('POST', `/v1/orgs/${org}/sites/${ms.id}/publish`)).urls.published;
    const cr = await call('POST', `/v1/spaces/${moved.space.id}/change-requests`, { subject: 'Rename' });
    const pid = moved.pages['Old Name'].id;
    await call('POST', `/v1/spaces/${moved.space.id}/change-requests/${cr.id}/content?compat=false`, {
      changes: [{ operation: 'update_page', page: pid, title: 'New Name', slug: 'new-name' }],
    });
    await call('POST', `/v1/spaces/${moved.space.id}/change-requests/${cr.id}/merge`);
    const r = await byUrl(`${url}/old-name`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ target: 'content', redirect: `${url}/new-name` });
    // An external destination is a 0.202.0 object (0.146.0 has no `external` kind): made by raw fetch.
    const made = await fetch(`${s.url}/v1/orgs/${org}/sites/${ms.id}/redirects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ source: '/legacy', destination: { kind: 'external', url: 'https://example.com/docs' } }),
    });
    expect(made.status).toBe(201);
    expect((await byUrl(`${url}/legacy`)).body).toEqual({ target: 'external', site: ms.id, redirect: 'https://example.com/docs' });
  });

  it('unknown, unpublished and hostile URLs: 404 or 400 with the error body, nothing fetched', async () => {
    for (const u of [
      `${published}/no/such/page`,
      `${s.url}/sites/${org}/no-such-site`,
      `${s.url}/sites/nope/lookup-docs`,
      `https://example.com/sites/${org}/lookup-docs`,
      `http://127.0.0.1:1/sites/${org}/lookup-docs`,
      `http://169.254.169.254/latest/meta-data`,
      `${s.url}/o/${org}`,
      `${published}/..%2F..%2Fetc`,
    ]) {
      const r = await byUrl(u);
      expect(r.status, u).toBe(404);
      expect(r.body.error?.code, u).toBe(404);
    }
    for (const u of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'ftp://example.com/x',
      `${published.replace('://', '://admin:secret@')}`,
      'not a url',
      `${published}/%E0%A4%A`,
    ]) {
      const r = await byUrl(u);
      expect([400, 404], u).toContain(r.status);
      expect(r.body.error, u).toBeDefined();
    }
    const unpublished = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Draft Only', spaces: [guides.space.id] });
    expect((await byUrl(`${s.url}/sites/${org}/${unpublished.basename}`)).status).toBe(404);
  });

  it('share-link sites need an active key in the URL (given back as shareKey); visitor-auth sites a valid token', async () => {
    const shared = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Shared Lookup', spaces: [guides.space.id], visibility: 'share-link' });
    const so = `/v1/orgs/${org}/sites/${shared.id}`;
    const url = (await call('POST', `${so}/publish`)).urls.published.split('?')[0];
    const link = await call('POST', `${so}/share-links`, { name: 'Team' });
    const key = new URL(link.urls.published).searchParams.get('share')!;
    expect((await byUrl(url)).status).toBe(404);
    expect((await byUrl(`${url}?share=${'x'.repeat(40)}`)).status).toBe(404);
    const ok = await byUrl(`${url}/getting-started?share=${key}`);
    expect(ok.status).toBe(200);
    expect(ok.body.shareKey).toBe(key);

    const closed = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Members Lookup', spaces: [guides.space.id], visibility: 'visitor-auth' });
    const co = `/v1/orgs/${org}/sites/${closed.id}`;
    const curl = (await call('POST', `${co}/publish`)).urls.published;
    expect((await byUrl(curl)).status).toBe(404);
    await s.api('POST', `/v1/orgs/${org}/ping`); // makes the data directory's visitor key
    const meta = (await s.ctx.store.read(readVisitorKey))!;
    const jwt = await new SignJWT({ role: 'admin' })
      .setProtectedHeader({ alg: 'ES256', kid: meta.kid })
      .setAudience(visitorAudience(org))
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(signingKey(meta));
    const signed = await byUrl(curl, undefined, `&visitorAuthToken=${jwt}`);
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body.contextId).toMatch(/^[0-9a-f]{24}$/);
    expect((await byUrl(curl, undefined, `&visitorAuthToken=${jwt}x`)).status).toBe(404);
    // With a sign-in backend and redirectOnError: where the published site would send the visitor.
    await call('PATCH', `${co}/publishing/auth`, { backend: 'custom', fallbackURL: 'https://login.example.com/sso' });
    const sent = await byUrl(`${curl}/getting-started`, undefined, '&redirectOnError=true');
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ target: 'external', site: closed.id, redirect: 'https://login.example.com/sso?location=%2Fgetting-started' });
  });

  it('a custom hostname of the site resolves the same; any caller may look up a public site, with a token that reads nothing they could not', async () => {
    const res = await fetch(`${s.url}/_docs/custom-hostnames`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ organization: org, site: site.id, hostname: 'lookup.acme.localhost' }),
    });
    expect(res.status).toBe(201);
    const r = await byUrl('http://lookup.acme.localhost/advanced');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      site: site.id,
      space: guides.space.id,
      pathname: 'advanced',
      siteBasePath: '/',
      canonicalUrl: 'http://lookup.acme.localhost/advanced',
    });

    const outsider = await addUser(s.ctx);
    const seen = await byUrl(`${published}/advanced`, outsider.token);
    expect(seen.status).toBe(200);
    // The outsider's token is the outsider's rights narrowed: the space stays closed to them.
    expect((await s.api('GET', `/v1/spaces/${guides.space.id}/content`, { token: seen.body.apiToken })).status).toBe(404);
  });

  it(`keeps at most ${PUBLISHED_TOKENS_MAX} published tokens per user`, async () => {
    const outsider = await addUser(s.ctx);
    for (let i = 0; i < PUBLISHED_TOKENS_MAX + 3; i++) expect((await byUrl(published, outsider.token)).status).toBe(200);
    const rows = await s.ctx.store.read((tx) => tx.find(Tokens, 'user', outsider.userId).filter((t) => t.scope?.kind === 'published'));
    expect(rows.length).toBe(PUBLISHED_TOKENS_MAX);
  });
});
