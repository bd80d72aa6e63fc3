import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/auth/bootstrap.js';
import { DocsError } from '../../src/kernel/errors.js';
import { openContext } from '../../src/open.js';
import { HttpTransport } from '../../src/transport/http.js';
import { LocalTransport } from '../../src/transport/local.js';
import type { Transport } from '../../src/transport/types.js';
import { startServer, TEST_TOKEN, type TestServer } from '../helpers/server.js';
import { invalidSpec, petstore } from './fixtures.js';

/** One OpenAPI scenario as a list of observable outcomes. */
async function scenario(t: Transport) {
  const out: unknown[] = [];
  const step = async (fn: () => Promise<unknown>) => {
    try {
      const r: any = await fn();
      out.push(r && typeof r === 'object' && 'status' in r ? { status: r.status, body: r.body } : r);
    } catch (e) {
      out.push(e instanceof DocsError ? { kind: e.kind, message: e.message } : String(e));
    }
  };
  const org = ((await t.call('listOrganizationsForAuthenticatedUser')).body as any).items[0].id;
  const path = { organizationId: org, specSlug: 'parity' };
  const settle = async () => {
    for (let i = 0; i < 500; i++) {
      const s = (await t.call('getOpenAPISpecBySlug', { path })).body as any;
      if (s.processingState === 'complete') return s;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('not processed');
  };
  await step(() => t.call('createOpenAPISpec', { path: { organizationId: org }, body: { slug: 'parity', source: { text: petstore() } } }));
  await step(settle);
  await step(() => t.call('createOpenAPISpec', { path: { organizationId: org }, body: { slug: 'parity', source: { text: petstore() } } }));
  await step(() => t.call('createOrUpdateOpenAPISpecBySlug', { path, body: { source: { text: invalidSpec } } }));
  await step(settle);
  await step(() => t.call('createOrUpdateOpenAPISpecBySlug', { path: { ...path, specSlug: 'Bad' }, body: { source: { text: 'x' } } }));
  await step(() => t.call('createOrUpdateOpenAPISpecBySlug', { path, body: { source: { url: 'ftp://x/y' } } }));
  await step(() => t.call('updateOpenAPISpecBySlug', { path, body: { visibility: 'public' } }));
  await step(() => t.call('listOpenAPISpecs', { path: { organizationId: org } }));
  await step(() => t.call('listOpenAPISpecVersions', { path }));
  await step(() => t.call('getOpenAPISpecVersionById', { path: { ...path, versionId: 'latest' } }));
  await step(() => t.call('getOpenAPISpecVersionContentById', { path: { ...path, versionId: 'latest' } }));
  await step(() => t.call('getLatestOpenAPISpecVersionContent', { path }));
  await step(() => t.call('getOpenAPISpecVersionById', { path: { ...path, versionId: 'AAAAAAAAAAAAAAAAAAAA' } }));
  await step(() => t.call('deleteOpenAPISpecBySlug', { path }));
  await step(() => t.call('deleteOpenAPISpecBySlug', { path }));
  await step(() => t.call('getOpenAPISpecBySlug', { path }));
  return out;
}

/** Ids, times and the base URL differ between two stores; everything else must not. */
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
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value);
}

describe('OpenAPI transport parity', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('gives the same results in-process (processing in this process) and over HTTP', async () => {
    const ctx = await openContext(undefined, { baseUrl: 'http://local.test' });
    const boot = await bootstrap(ctx, 'gb_api_local');
    const local = LocalTransport.as(ctx, undefined, { userId: boot!.userId }, 'memory');
    local.runWorkers();
    try {
      const a = normalize(await scenario(local), 'http://local.test');
      const b = normalize(await scenario(new HttpTransport(server.url, TEST_TOKEN)), server.url);
      expect(a).toEqual(b);
      const text = JSON.stringify(a);
      for (const kind of ['conflict', 'invalid', 'not_found']) expect(text).toContain(`"kind":"${kind}"`);
      expect(text).toContain('"status":205');
      expect(text).toContain('"status":204');
    } finally {
      await local.close();
    }
  });
});
