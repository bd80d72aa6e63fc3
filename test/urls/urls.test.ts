import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { Users } from '../../src/users/tables.js';

// The URL operations and the user/subdomain/email-domain reads (issue 27 "URLs and the rest of
// the core"), over HTTP, every answer checked against both specs by `s.api`.

let s: TestServer;
let org: string;
let space: string;
let collection: string;
let cr: { id: string; number: number };
const q = (u: string) => encodeURIComponent(u);

beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  collection = (await s.api('POST', `/v1/orgs/${org}/collections`, { body: { title: 'Handbooks' } })).body.id;
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Guide', parent: collection } })).body.id;
  const sp = `/v1/spaces/${space}`;
  const first = (await s.api('POST', `${sp}/change-requests`, { body: { subject: 'Pages' } })).body;
  await s.api('POST', `${sp}/change-requests/${first.id}/content?compat=false`, {
    body: {
      changes: [
        { operation: 'insert_page', ref: 'start', title: 'Getting started', document: { markdown: 'Hello.' } },
        { operation: 'insert_page', ref: 'setup', into: 'start', title: 'Setup', document: { markdown: 'Install.' } },
      ],
    },
  });
  expect((await s.api('POST', `${sp}/change-requests/${first.id}/merge`)).status).toBe(200);
  cr = (await s.api('POST', `${sp}/change-requests`, { body: { subject: 'Rename setup' } })).body;
}, 60_000);
afterAll(() => s?.stop());

describe('getContentByUrl', () => {
  it('resolves the app URLs the API hands out: collection, space, page (nested), change request and its page', async () => {
    const sp = (await s.api('GET', `/v1/spaces/${space}`)).body;
    const col = (await s.api('GET', `/v1/collections/${collection}`)).body;
    const byUrl = async (u: string) => s.api('GET', `/v1/urls/content?url=${q(u)}`);

    expect((await byUrl(col.urls.app)).body).toEqual({ collection: expect.objectContaining({ id: collection }) });
    const r = await byUrl(sp.urls.app);
    expect(r.status).toBe(200);
    expect(r.body.space.id).toBe(space);
    expect(r.body.page).toBeUndefined();

    const pages = (await s.api('GET', `/v1/spaces/${space}/content/pages`)).body.pages;
    const setup = pages[0].pages[0];
    expect(setup.title).toBe('Setup');
    const p = await byUrl(setup.urls.app);
    expect(p.status).toBe(200);
    expect(p.body.page).toEqual(expect.objectContaining({ id: setup.id, path: setup.path }));
    expect(setup.path).toContain('/');

    const crBody = (await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}`)).body;
    const c = await byUrl(crBody.urls.app);
    expect(c.body.changeRequest.id).toBe(cr.id);
    expect(c.body.space.id).toBe(space);
    const cp = await byUrl(`${crBody.urls.app}/${setup.path}`);
    expect(cp.body.page.id).toBe(setup.id);
  });

  it('says 404 for what is not there, and for URLs that are not this server app', async () => {
    const sp = (await s.api('GET', `/v1/spaces/${space}`)).body;
    for (const u of [
      `${sp.urls.app}/no/such/page`,
      `${s.url}/o/${org}/s/nope`,
      `https://example.com/o/${org}/s/${space}`,
      `${s.url}/sites/x/y`,
      `${s.url}/o/${org}/s/${space}/%E0%A4%A`,
      `${s.url}/o/${org}/s/${space}/~/changes/999`,
      `${s.url}/o/not-the-org/s/${space}`,
    ]) {
      const r = await s.api('GET', `/v1/urls/content?url=${q(u)}`);
      expect(r.status, u).toBe(404);
    }
  });

  it('answers a caller with no access to the space as if it did not exist', async () => {
    const outsider = await addUser(s.ctx);
    const sp = (await s.api('GET', `/v1/spaces/${space}`)).body;
    const r = await s.api('GET', `/v1/urls/content?url=${q(sp.urls.app)}`, { token: outsider.token });
    expect(r.status).toBe(404);
    const e = await s.api('GET', `/v1/urls/embed?url=${q(sp.urls.app)}`, { token: outsider.token });
    expect(e.status).toBe(404);
  });
});

describe('getEmbedByUrl, getEmbedByUrlInSpace', () => {
  it('embeds this server pages as links titled after them, and other addresses as plain links without fetching them', async () => {
    const pages = (await s.api('GET', `/v1/spaces/${space}/content/pages`)).body.pages;
    const e = await s.api('GET', `/v1/urls/embed?url=${q(pages[0].urls.app)}`);
    expect(e.body).toEqual({ type: 'link', title: 'Getting started', site: expect.any(String) });
    // 127.0.0.1:9 (discard) would refuse a connection: an answer proves nothing was fetched.
    const ext = await s.api('GET', `/v1/urls/embed?url=${q('http://127.0.0.1:9/secret/admin')}`);
    expect(ext.body).toEqual({ type: 'link', title: '127.0.0.1:9/secret/admin', site: '127.0.0.1:9' });
    const inSpace = await s.api('GET', `/v1/spaces/${space}/embed?url=${q(pages[0].urls.app)}`);
    expect(inSpace.body.title).toBe('Getting started');
  });

  it('refuses what is not an http(s) URL (400)', async () => {
    for (const u of ['javascript:alert(1)', 'not a url', 'file:///etc/passwd']) {
      const r = await s.api('GET', `/v1/urls/embed?url=${q(u)}`);
      expect(r.status, u).toBe(400);
    }
  });

  it('needs read access to the space for the in-space variant', async () => {
    const outsider = await addUser(s.ctx);
    const r = await s.api('GET', `/v1/spaces/${space}/embed?url=${q('https://example.com/')}`, { token: outsider.token });
    expect(r.status).toBe(404);
  });
});

describe('updateUserById', () => {
  it('lets users change their own profile, and instance owners anyone', async () => {
    const ann = await addUser(s.ctx);
    const r = await s.api('PATCH', `/v1/users/${ann.userId}`, {
      token: ann.token,
      body: { displayName: '  Ann Lee ', photoURL: 'https://example.com/ann.png' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual(expect.objectContaining({ id: ann.userId, displayName: 'Ann Lee', photoURL: 'https://example.com/ann.png' }));
    const byOwner = await s.api('PATCH', `/v1/users/${ann.userId}`, { body: { displayName: 'Ann' } });
    expect(byOwner.body.displayName).toBe('Ann');
  });

  it('refuses anyone else (403), even an admin of an organization the user is in, and changes nothing', async () => {
    const admin = await addUser(s.ctx, org, 'admin');
    const bob = await addUser(s.ctx, org, 'read');
    const r = await s.api('PATCH', `/v1/users/${bob.userId}`, { token: admin.token, body: { displayName: 'Pwned' } });
    expect(r.status).toBe(403);
    const after = await s.ctx.store.read((tx) => tx.get(Users, bob.userId));
    expect(after!.displayName).not.toBe('Pwned');
  });

  it('refuses bad values (400) and unknown users (404), changing nothing', async () => {
    const ann = await addUser(s.ctx);
    for (const body of [{}, { displayName: '   ' }, { photoURL: 'javascript:alert(1)' }, { displayName: 'x'.repeat(65) }]) {
      const r = await s.api('PATCH', `/v1/users/${ann.userId}`, { token: ann.token, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect((await s.api('GET', `/v1/users/${ann.userId}`)).body.displayName).toMatch(/^User /);
    expect((await s.api('PATCH', '/v1/users/nobody', { body: { displayName: 'X' } })).status).toBe(404);
  });
});

describe('getSubdomain', () => {
  it('names the organization publishing under a hostname, to its members only', async () => {
    expect((await s.api('PATCH', `/v1/orgs/${org}`, { body: { hostname: 'acme-docs' } })).status).toBe(200);
    const r = await s.api('GET', '/v1/subdomains/acme-docs');
    expect(r.body).toEqual({ object: 'subdomain', subdomain: 'acme-docs', target: { type: 'organization', organization: org }, isActive: true });
    const outsider = await addUser(s.ctx);
    expect((await s.api('GET', '/v1/subdomains/acme-docs', { token: outsider.token })).status).toBe(404);
    expect((await s.api('GET', '/v1/subdomains/nobody-here')).status).toBe(404);
    expect((await s.api('GET', '/v1/subdomains/Not_Valid')).status).toBe(400);
  });
});

describe('getOrganizationsForEmailDomain', () => {
  it('lists the organizations a domain may join: to an instance owner, or a user with a verified address there', async () => {
    const other = (await s.api('POST', '/v1/orgs', { body: { title: 'Widgets', emailDomains: ['widgets.test'] } })).body.id;
    const all = await s.api('GET', '/v1/email-domains/WIDGETS.test/orgs');
    expect(all.body.organizations.map((o: any) => o.id)).toEqual([other]);

    const carol = await addUser(s.ctx);
    await s.ctx.store.write((tx) => tx.put(Users, { ...tx.get(Users, carol.userId)!, email: 'carol@widgets.test' }));
    // Not verified: refused (anyone could claim an address by being invited with it).
    expect((await s.api('GET', '/v1/email-domains/widgets.test/orgs', { token: carol.token })).status).toBe(403);
    await s.ctx.store.write((tx) => tx.put(Users, { ...tx.get(Users, carol.userId)!, emailVerified: true }));
    const mine = await s.api('GET', '/v1/email-domains/widgets.test/orgs', { token: carol.token });
    expect(mine.status).toBe(200);
    expect(mine.body.organizations[0]).toEqual(expect.objectContaining({ id: other, permissions: expect.objectContaining({ admin: false, access: false }) }));
    // Not a domain: 400, whoever asks.
    for (const bad of ['%00', 'x'.repeat(300), "'%20OR%201=1%20--", 'localhost', '%F0%9F%92%A9']) {
      expect((await s.api('GET', `/v1/email-domains/${bad}/orgs`)).status, bad).toBe(400);
    }
    // Another domain than their own: refused.
    expect((await s.api('GET', '/v1/email-domains/example.com/orgs', { token: carol.token })).status).toBe(403);
  });
});
