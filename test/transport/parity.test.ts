import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/auth/bootstrap.js';
import { DocsError } from '../../src/kernel/errors.js';
import { openContext } from '../../src/open.js';
import { HttpTransport } from '../../src/transport/http.js';
import { LocalTransport } from '../../src/transport/local.js';
import type { Transport } from '../../src/transport/types.js';
import { startServer, TEST_TOKEN, type TestServer } from '../helpers/server.js';

/** One scenario, as a list of observable outcomes (bodies, statuses, error kinds and messages). */
async function scenario(t: Transport) {
  const out: unknown[] = [];
  const step = async (fn: () => Promise<unknown>) => {
    try {
      out.push(await fn());
    } catch (e) {
      out.push(e instanceof DocsError ? { kind: e.kind, message: e.message } : String(e));
    }
  };
  const me = (await t.call('getAuthenticatedUser')).body as any;
  out.push(me);
  const created = (await t.call('createOrganization', { body: { title: 'Parity Org', emailDomains: ['example.com'] } })) as any;
  out.push(created.status, created.body);
  const id = created.body.id;
  await step(async () => (await t.call('getOrganizationById', { path: { organizationId: id } })).body);
  await step(async () => (await t.call('listOrganizationsForAuthenticatedUser', { query: { limit: 1 } })).body);
  await step(async () => (await t.call('listOrganizationsForAuthenticatedUser', { query: { limit: '2' } })).body);
  await step(() => t.call('getOrganizationById', { path: { organizationId: 'missing' } }));
  await step(() => t.call('createOrganization', { body: { title: 'x' } }));
  await step(() => t.call('createOrganization', { body: { title: 'Ok', emailDomains: 'nope' } }));
  await step(() => t.call('listOrganizationsForAuthenticatedUser', { query: { page: 'forged' } }));
  await step(async () => (await t.request('GET', `/orgs/${id}`)).body);
  await step(async () => (await t.request('GET', '/nope')).body);
  await step(async () => (await t.request('PATCH', '/orgs')).status);
  return out;
}

/** Ids, times, cursors and the base URL differ between two stores; everything else must not. */
function normalize(value: unknown, base: string): unknown {
  const ids = new Map<string, string>();
  const walk = (v: any): any => {
    if (typeof v === 'string') {
      let s = v.split(base).join('{base}');
      s = s.replace(/\b[A-Za-z0-9]{20}\b/g, (id) => {
        if (!ids.has(id)) ids.set(id, `{id${ids.size}}`);
        return ids.get(id)!;
      });
      return /^\d{4}-\d\d-\d\dT/.test(s) ? '{time}' : s;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'page' ? '{cursor}' : walk(x)]));
    return v;
  };
  return walk(value);
}

describe('transport parity', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('gives the same results in-process and over HTTP, field by field', async () => {
    const ctx = await openContext(undefined, { baseUrl: 'http://local.test' });
    const boot = await bootstrap(ctx, 'gb_api_local');
    const local = LocalTransport.as(ctx, undefined, { userId: boot!.userId }, 'memory');
    const remote = new HttpTransport(server.url, TEST_TOKEN);
    const a = normalize(await scenario(local), 'http://local.test');
    const b = normalize(await scenario(remote), server.url);
    expect(a).toEqual(b);
    // The scenario really exercised errors of several kinds on both sides.
    expect(JSON.stringify(a)).toContain('"kind":"not_found"');
    expect(JSON.stringify(a)).toContain('"kind":"invalid"');
  });
});
