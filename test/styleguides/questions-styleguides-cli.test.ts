import { describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { runBoth, recorder } from '../helpers/parity.js';
import { startServer } from '../helpers/server.js';
import { HttpTransport } from '../../src/transport/http.js';
import type { Transport } from '../../src/transport/types.js';

// `docs questions …` and `docs styleguides …` (docs/manual/ask.md#site-questions-and-answers,
// docs/manual/styleguides.md) over HTTP, and the transport parity of both groups: the same
// scenario in process and over HTTP gives the same outcomes (ids and times aside).

/** A space with one page, in a site: its ids. */
async function world(t: Transport) {
  const organizationId = ((await t.call('listOrganizationsForAuthenticatedUser', {})).body as any).items[0].id;
  const space = (await t.call('createSpace', { path: { organizationId }, body: { title: 'Help' } })).body as any;
  const cr = (await t.call('createChangeRequest', { path: { spaceId: space.id }, body: { subject: 'w' } })).body as any;
  await t.call('updateChangeRequestContent', {
    path: { spaceId: space.id, changeRequestId: cr.id },
    query: { compat: false },
    body: { changes: [{ operation: 'insert_page', title: 'Access', document: { markdown: '## How To Login\n\nLogin to utilize your refund form.' } }] },
  });
  await t.call('mergeChangeRequest', { path: { spaceId: space.id, changeRequestId: cr.id } });
  const site = (await t.call('createSite', { path: { organizationId }, body: { title: 'Help center', spaces: [space.id] } as any })).body as any;
  return { organizationId, spaceId: space.id as string, siteId: site.id as string };
}

describe('site questions and styleguides: parity and the CLI', () => {
  it('give the same outcomes in process and over HTTP', async () => {
    const server = await startServer();
    const { local, remote } = await runBoth(server, async (t) => {
      const { out, step } = recorder();
      const { organizationId, spaceId, siteId } = await world(t);
      const path = { organizationId, siteId };
      for await (const _ of t.stream('streamAskInSite', { path, query: {}, body: { question: 'How do I login?', scope: { mode: 'all' } } }));
      await step(() => t.call('listSiteQuestions', { path, query: {} }));
      await step(() => t.call('getSiteQuestionStats', { path, query: {} }));
      await step(() => t.call('listSiteQuestionAnswers', { path, query: { answered: ['yes'] } }));
      await step(() => t.call('listSiteQuestions', { path, query: { topic: ['t1'] } }));
      await step(() => t.call('createSiteStyleguideRun', { path, body: { spaces: [spaceId] } }));
      await step(() => t.call('createSiteStyleguideById', { path, body: { template: 'plain-language' } }));
      await step(() => t.call('createSiteStyleguideRun', { path, body: { spaces: [spaceId] } }));
      await step(() => t.call('listSiteStyleguideRuns', { path, query: {} }));
      await step(() => t.call('listStyleguideTemplates', { path: { organizationId } }));
      return out;
    }).finally(() => server.stop());
    // Question and answer ids are `<organization>.q<hash>` / `.r<random>`: the part after the organization differs too.
    const same = (v: unknown) => JSON.parse(JSON.stringify(v).replace(/(\{id\d+\})\.[qr][A-Za-z0-9_-]{19,22}/g, '$1.{sub}'));
    expect(same(remote)).toEqual(same(local));
    const text = JSON.stringify(local);
    expect(text).toContain('how-to');
    expect(text).toContain('topic: no topic t1');
    expect(text).toContain('has no style guide');
    expect(text).toContain('write \\"Sign in\\"');
  }, 90_000);

  it('docs questions and docs styleguides over HTTP', async () => {
    const s = await startServer();
    try {
      const env = { DOCS_API_URL: s.url, DOCS_TOKEN: s.token };
      const { siteId, spaceId } = await world(new HttpTransport(s.url, s.token));
      await s.api('POST', `/v1/orgs/${(await s.api('GET', '/v1/orgs')).body.items[0].id}/sites/${siteId}/ask`, {
        body: { question: 'How do I login?', scope: { mode: 'all' } },
      });
      const list = await docs(['questions', 'list', siteId], env);
      expect(list.status).toBe(0);
      expect(list.stdout).toContain('How do I login?');
      expect(list.stdout).toContain('how-to');
      const bad = await docs(['questions', 'list', siteId, '--answered', 'maybe'], env);
      expect(bad.status).toBe(2);
      const before = await docs(['styleguides', 'check', siteId, '--space', spaceId], env);
      expect(before.status).not.toBe(0);
      expect(before.stderr).toMatch(/has no style guide/);
      expect((await docs(['styleguides', 'create', siteId, '--template', 'plain-language'], env)).stdout).toMatch(/✓ Style guide of the site/);
      const run = await docs(['styleguides', 'check', siteId, '--space', spaceId], env);
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/✓ Style guide run \S+: 4 findings; change requests #2 \(1 pages changed\)/);
      expect((await docs(['styleguides', 'runs', siteId, '--json'], env)).json.count).toBe(1);
    } finally {
      await s.stop();
    }
  }, 90_000);
});
