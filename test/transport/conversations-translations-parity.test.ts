import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/auth/bootstrap.js';
import { DocsError } from '../../src/kernel/errors.js';
import { openContext } from '../../src/open.js';
import { HttpTransport } from '../../src/transport/http.js';
import { LocalTransport } from '../../src/transport/local.js';
import type { Transport } from '../../src/transport/types.js';
import { startServer, TEST_TOKEN, type TestServer } from '../helpers/server.js';
import { startFakeTranslator } from '../translations/fake-translator.js';

const msg = (body: string) => ({ type: 'message', role: 'user', body });

/** One scenario over both areas as a list of observable outcomes. */
async function scenario(t: Transport) {
  const out: unknown[] = [];
  const step = async (fn: () => Promise<unknown>) => {
    try {
      const r: any = await fn();
      out.push(r && typeof r === 'object' && 'status' in r ? { status: r.status, body: r.body } : r);
      return r?.body;
    } catch (e) {
      out.push(e instanceof DocsError ? { kind: e.kind, message: e.message } : String(e));
    }
  };
  const until = async (fn: () => Promise<boolean>) => {
    for (let i = 0; i < 500 && !(await fn()); i++) await new Promise((r) => setTimeout(r, 10));
  };
  const org = ((await t.call('listOrganizationsForAuthenticatedUser')).body as any).items[0].id;
  const path = { organizationId: org };
  await step(() => t.call('ingestConversation', { path, body: [{ id: 'a', subject: 'Reset', parts: [msg('Password reset email never arrives, cannot reset password.')] }, { id: 'b', parts: [msg('Reset password link expired, password reset fails.')] }] }));
  await step(() => t.call('ingestConversation', { path, body: { id: 'c', parts: [] } }));
  await until(async () => ((await t.call('listConversations', { path })).body as any).items.every((c: any) => c.processedAt));
  const clusters = await step(() => t.call('listConversationsIssuesClusters', { path, query: { orderBy: 'issues' } }));
  await step(() => t.call('listConversationsIssues', { path, query: { cluster: clusters.items[0].id } }));
  await step(() => t.call('getConversationsIssuesCluster', { path: { ...path, clusterId: 'AAAAAAAAAAAAAAAAAAAA' } }));
  const space = await step(() => t.call('createSpace', { path, body: { title: 'Guide' } }));
  const tr = await step(() => t.call('createTranslation', { path, body: { source: { space: space.id, language: 'en' }, language: 'fr' } }));
  await step(() => t.call('createTranslation', { path, body: { source: { space: space.id, language: 'en' }, language: 'fr' } }));
  const tpath = { ...path, translationId: tr.id };
  await step(() => t.call('runTranslation', { path: tpath }));
  await until(async () => ((await t.call('getTranslation', { path: tpath })).body as any).status === 'completed');
  await step(() => t.call('getTranslation', { path: tpath }));
  await step(() => t.call('listTranslations', { path }));
  await step(() => t.call('deleteTranslation', { path: tpath }));
  await step(() => t.call('deleteTranslation', { path: tpath }));
  await step(() => t.call('runTranslation', { path: tpath }));
  return out;
}

/** Ids (also in keys: `sources` is keyed by source), times and the base URL differ between two stores; everything else must not. */
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
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [walk(k), walk(x)]));
    return v;
  };
  return walk(value);
}

describe('conversations and translations: transport parity', () => {
  let server: TestServer;
  let fake: Awaited<ReturnType<typeof startFakeTranslator>>;
  beforeAll(async () => {
    fake = await startFakeTranslator();
    process.env.DOCS_TRANSLATOR_URL = fake.url;
    server = await startServer();
  });
  afterAll(async () => {
    delete process.env.DOCS_TRANSLATOR_URL;
    await server.stop();
    await fake.close();
  });

  it('gives the same results in-process (workers in this process) and over HTTP', async () => {
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
      expect(text).toContain('"status":"completed"');
      expect(text).toContain('"status":205');
    } finally {
      await local.close();
    }
  });
});
