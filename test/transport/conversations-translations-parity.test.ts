import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transport } from '../../src/transport/types.js';
import { recorder, runBoth } from '../helpers/parity.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { startFakeTranslator } from '../translations/fake-translator.js';

const msg = (body: string) => ({ type: 'message', role: 'user', body });

/** One scenario over both areas as a list of observable outcomes. */
async function scenario(t: Transport) {
  const { out, step } = recorder();
  const until = async (fn: () => Promise<boolean>) => {
    for (let i = 0; i < 500 && !(await fn()); i++) await new Promise((r) => setTimeout(r, 10));
  };
  const org = ((await t.call('listOrganizationsForAuthenticatedUser')).body as any).items[0].id;
  const path = { organizationId: org };
  await step(() =>
    t.call('ingestConversation', {
      path,
      body: [
        { id: 'a', subject: 'Reset', parts: [msg('Password reset email never arrives, cannot reset password.')] },
        { id: 'b', parts: [msg('Reset password link expired, password reset fails.')] },
      ],
    }),
  );
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
    const { local: a, remote: b } = await runBoth(server, scenario);
    expect(a).toEqual(b);
    const text = JSON.stringify(a);
    for (const kind of ['conflict', 'invalid', 'not_found']) expect(text).toContain(`"kind":"${kind}"`);
    expect(text).toContain('"status":"completed"');
    expect(a.map((x) => (Array.isArray(x) ? x[0] : undefined))).toContain(205);
  });
});
