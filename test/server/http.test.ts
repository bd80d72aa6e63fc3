import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenUsesWritten } from '../../src/auth/tokens.js';
import { contractRoutes } from '../../src/contract/spec.js';
import { OPERATIONS } from '../../src/operations.js';
import { MAX_BODY_BYTES } from '../../server/body.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { Users } from '../../src/users/tables.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ onDisk: true });
});
afterAll(() => s.stop());

/** Every byte of the data directory, to show that refused requests change nothing. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(join(dir, 'store'))) out[f] = readFileSync(join(dir, 'store', f), 'utf8');
  return out;
}

describe('HTTP edge', () => {
  it('answers 401 on every registered route without a token or with a wrong one', async () => {
    for (const op of OPERATIONS) {
      const [method, path] = contractRoutes().find((r) => r[2] === op.operationId)!;
      const url = '/v1' + path.replace(/\{[^}]+\}/g, 'x');
      for (const token of [null, 'gb_api_wrong']) {
        const r = await s.api(method, url, { token, body: method === 'GET' ? undefined : { title: 'Nope' } });
        expect(r.status, `${method} ${url}`).toBe(401);
      }
    }
  });

  it('answers 404 for unknown routes and 405 for a wrong method, in the error body', async () => {
    expect((await s.api('GET', '/v1/nope')).status).toBe(404);
    expect((await s.api('GET', '/nope')).status).toBe(404);
    const r = await s.api('DELETE', '/v1/orgs');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, POST');
  });

  it('refuses malformed JSON, a wrong content type and an oversized body, storing nothing', async () => {
    // The token's use is recorded at its first request of a minute (lastUsedAt), off the request's
    // path: made here, first, and waited for.
    expect((await s.api('GET', '/v1/user')).status).toBe(200);
    await tokenUsesWritten();
    const before = snapshot(s.dataDir!);
    expect((await s.api('POST', '/v1/orgs', { raw: '{"title": "A' })).status).toBe(400);
    expect((await s.api('POST', '/v1/orgs', { raw: 'title=Acme', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(400);
    const big = await s.api('POST', '/v1/orgs', { raw: JSON.stringify({ title: 'x'.repeat(MAX_BODY_BYTES) }) });
    expect(big.status).toBe(413);
    expect((await s.api('POST', '/v1/orgs', { body: { title: 'A' } })).body.error.message).toBe('body.title: must NOT have fewer than 2 characters');
    expect((await s.api('POST', '/v1/orgs', { body: { title: 'Acme', extra: { deep: [1, 2] }, emailDomains: 'acme.com' } })).status).toBe(400);
    expect((await s.api('GET', '/v1/orgs?limit=0')).status).toBe(400);
    expect((await s.api('GET', '/v1/orgs?page=forged')).status).toBe(400);
    expect((await s.api('GET', '/v1/orgs/%E0%A4%A')).status).toBe(400);
    expect(snapshot(s.dataDir!)).toEqual(before);
  });
});

describe('users and organizations', () => {
  it('GET /user returns the token holder', async () => {
    const r = await s.api('GET', '/v1/user');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ object: 'user', displayName: 'Owner', email: 'owner@localhost' });
    expect((await s.api('GET', `/v1/users/${r.body.id}`)).body).toEqual(r.body);
    expect((await s.api('GET', '/v1/users/nobody')).status).toBe(404);
  });

  it('creates an organization with 201 and Location, and lists and gets it', async () => {
    const created = await s.api('POST', '/v1/orgs', { body: { title: 'Acme Docs', emailDomains: ['acme.com', 'acme.com'] } });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${s.url}/v1/orgs/${created.body.id}`);
    expect(created.body).toMatchObject({ title: 'Acme Docs', emailDomains: ['acme.com'], permissions: { admin: true, view: true } });
    const got = await s.api('GET', `/v1/orgs/${created.body.id}`);
    expect(got.body).toEqual(created.body);
    const list = await s.api('GET', '/v1/orgs');
    expect(list.body.items.map((o: any) => o.id)).toContain(created.body.id);
    expect(list.body.count).toBe(list.body.items.length);
  });

  it('pages the organization list with limit and next.page', async () => {
    for (let i = 0; i < 3; i++) await s.api('POST', '/v1/orgs', { body: { title: `Paged ${i}` } });
    const all = (await s.api('GET', '/v1/orgs?limit=1000')).body;
    const ids: string[] = [];
    let page = '';
    do {
      const r = await s.api('GET', `/v1/orgs?limit=2${page ? `&page=${page}` : ''}`);
      expect(r.body.count).toBe(all.count);
      ids.push(...r.body.items.map((o: any) => o.id));
      page = r.body.next?.page ?? '';
    } while (page);
    expect(ids).toEqual(all.items.map((o: any) => o.id));
  });

  it('hides organizations the caller is not a member of (404)', async () => {
    // A second user, who gets a token through the store: members only see their own organizations.
    const { insertToken } = await import('../../src/auth/tokens.js');
    await s.ctx.store.write((tx) => {
      tx.put(Users, { id: 'u2', displayName: 'Other', email: 'other@example.com', createdAt: new Date().toISOString() });
      insertToken(tx, 'gb_api_other', 'u2', 'test', new Date());
    });
    const mine = (await s.api('GET', '/v1/orgs')).body.items[0].id;
    expect((await s.api('GET', `/v1/orgs/${mine}`, { token: 'gb_api_other' })).status).toBe(404);
    expect((await s.api('GET', '/v1/orgs', { token: 'gb_api_other' })).body).toEqual({ items: [], count: 0 });
    const theirs = await s.api('POST', '/v1/orgs', { token: 'gb_api_other', body: { title: 'Theirs' } });
    expect((await s.api('GET', `/v1/orgs/${theirs.body.id}`)).status).toBe(404);
  });

  it('refuses openapiUrl with withDefaultSite, creating nothing (the default site itself: test/sites)', async () => {
    const before = (await s.api('GET', '/v1/orgs?limit=1000')).body.count;
    const r = await s.api('POST', '/v1/orgs?withDefaultSite=true&openapiUrl=https://example.com/openapi.json', { body: { title: 'With site' } });
    expect(r.status).toBe(400);
    expect((await s.api('GET', '/v1/orgs?limit=1000')).body.count).toBe(before);
  });
});
