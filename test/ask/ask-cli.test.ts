import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { expectContract } from '../helpers/contract.js';
import { runBoth, recorder } from '../helpers/parity.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// `docs ask`, `docs ask questions`, `docs ask respond` (docs/manual/ask.md), in process and over
// HTTP; the ask operations' transport parity (streams included).

function folder(): string {
  const dir = tempDir();
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'refunds.md'),
    '# Refunds\n\nCustomers can ask for a refund within 30 days of purchase. Refunds are paid back to the original card in five working days.\n',
  );
  writeFileSync(join(dir, 'shipping.md'), '# Shipping\n\nOrders ship from our warehouse in Lyon. Express shipping takes two days.\n');
  return dir;
}

/** The same scenario through the CLI, wherever `env` sends it. */
async function scenario(env: Record<string, string>) {
  const space = (await docs(['spaces', 'create', '--title', 'Help', '--json'], env)).json;
  const push = await docs(['content', 'push', folder(), '--space', space.id, '--merge'], env);
  expect(push.status, push.stderr).toBe(0);

  const a = await docs(['ask', 'When are refunds paid back to the card?'], env);
  expect(a.status, a.stderr).toBe(0);
  expect(a.stdout).toContain('> Customers can ask for a refund within 30 days of purchase. Refunds are paid back to the original card in five working days.');
  expect(a.stdout).toMatch(/^\*\*\[Refunds\]\(http[^)]+\/refunds\)\*\*/);
  expect(a.stdout).toContain(`Sources: ${space.id}/`);

  const j = await docs(['ask', 'When are refunds paid back to the card?', '--json'], env);
  expect(j.status, j.stderr).toBe(0);
  expectContract('POST', '/v1/orgs/x/ask', 200, j.json);
  expect(j.json.answer.answer.markdown).toContain('five working days');

  // Over the length limit: exit 2, the server's message, nothing recorded.
  const long = await docs(['ask', 'refund '.repeat(80)], env);
  expect(long.status).toBe(2);
  expect(long.stderr).toContain('query: at most 512 characters');

  const q = await docs(['ask', 'questions', '--json'], env);
  expect(q.json.questions[0]).toBe('When are refunds paid back to the card?');
  expect((await docs(['ask', 'questions', '--stream'], env)).stdout.split('\n')[0]).toBe('When are refunds paid back to the card?');

  const site = (await docs(['sites', 'create', '--title', 'Help center', '--json'], env)).json;
  const added = await docs(['site-spaces', 'add', site.id, '--space-id', space.id, '--json'], env);
  expect(added.status, added.stderr).toBe(0);
  const s = await docs(['ask', 'express shipping', '--site', site.id], env);
  expect(s.status, s.stderr).toBe(0);
  expect(s.stdout).toMatch(/^> .*Express shipping takes two days\.$/m);
  const sq = await docs(['ask', 'questions', '--site', site.id], env);
  expect(sq.stdout.split('\n')[0]).toBe('express shipping');

  const r = await docs(['ask', 'respond', 'How long does express shipping take?', '--site', site.id], env);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain('Express shipping takes two days.');
  const id = /Response (\S+)/.exec(r.stdout)![1]!;
  const replay = await docs(['ask', 'respond', '--replay', id, '--site', site.id, '--json'], env);
  expect(replay.status, replay.stderr).toBe(0);
  expect(replay.json.at(-1)).toMatchObject({ type: 'response_finish', responseId: id });
  const missing = await docs(['ask', 'respond', '--replay', 'nope', '--site', site.id], env);
  expect(missing.status).toBe(3);
  expect((await docs(['ask', 'respond', '--site', site.id], env)).status).toBe(2);
}

describe('docs ask, in-process', () => {
  it('answers, streams, counts and replays on a local data directory', async () => {
    await scenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_ask_local' });
  }, 120_000);
});

describe('docs ask, over HTTP', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s?.stop());

  it('answers, streams, counts and replays through the server', async () => {
    await scenario({ DOCS_API_URL: s.url, DOCS_TOKEN: s.token });
  }, 120_000);

  it('the ask operations give the same outcomes in process and over HTTP (streams as their list of events)', async () => {
    // A server of its own: the scenario above left questions and pages in the other.
    const fresh = await startServer();
    const { local, remote } = await runBoth(fresh, async (t) => {
      const { out, step } = recorder();
      const org = (await t.call('listOrganizationsForAuthenticatedUser', {})).body as any;
      const organizationId = org.items[0].id;
      const space = (await t.call('createSpace', { path: { organizationId }, body: { title: 'Parity' } })).body as any;
      const cr = (await t.call('createChangeRequest', { path: { spaceId: space.id }, body: { subject: 'w' } })).body as any;
      await t.call('updateChangeRequestContent', {
        path: { spaceId: space.id, changeRequestId: cr.id },
        query: { compat: false },
        body: {
          changes: [{ operation: 'insert_page', title: 'Tokens', document: { markdown: 'Create a token in the settings. Tokens expire after a year.' } }],
        },
      });
      await t.call('mergeChangeRequest', { path: { spaceId: space.id, changeRequestId: cr.id } });
      await step(() => t.call('askInOrganization', { path: { organizationId }, query: { format: 'markdown' }, body: { query: 'when do tokens expire' } }));
      const events: unknown[] = [];
      for await (const e of t.stream('streamAskInOrganization', { path: { organizationId }, query: { query: 'token settings' } })) events.push(e);
      out.push(events);
      await step(() => t.call('streamRecommendedQuestionsInOrganization', { path: { organizationId } }));
      await step(() => t.call('askInOrganization', { path: { organizationId }, body: { query: 'x'.repeat(513) } }));
      await step(async () => {
        for await (const _ of t.stream('streamAskInOrganization', { path: { organizationId }, query: { query: 'x'.repeat(513) } }));
      });
      return out;
    }).finally(() => fresh.stop());
    expect(remote).toEqual(local);
    expect(JSON.stringify(local)).toContain('Tokens expire after a year.');
    expect(JSON.stringify(local)).toContain('at most 512 characters');
  }, 60_000);
});
