import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { llmStats } from '../../src/ask/llm.js';
import { withServer } from '../helpers/loopback.js';
import { startServer, type TestServer } from '../helpers/server.js';

// With a model configured (DOCS_ASK_LLM_URL: an OpenAI-compatible endpoint, here a fake on
// loopback), the answer is the model's, written from the same passages, and still lists them as
// its sources; a failing model falls back to the extractive answer (docs/manual/ask.md#with-a-model).

let s: TestServer;
let org: string;
let space: string;

beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Help' } })).body.id;
  const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'w' } })).body.id;
  await s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, {
    body: {
      changes: [{ operation: 'insert_page', title: 'Refunds', document: { markdown: 'Refunds are paid back to the original card in five working days.' } }],
    },
  });
  await s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`);
}, 60_000);
afterAll(() => s?.stop());

const ask = (query: string) => s.api('POST', `/v1/orgs/${org}/ask?format=markdown`, { body: { query } });

describe('ask with a model', () => {
  it("answers with the model's text from the passages, then the sources", async () => {
    const seen: any[] = [];
    await withServer(
      (req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          seen.push({ url: req.url, auth: req.headers.authorization, body: JSON.parse(body) });
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Refunds reach your card within five working days [1].' } }] }));
        });
      },
      async (url) => {
        process.env.DOCS_ASK_LLM_URL = `${url}/v1`;
        process.env.DOCS_ASK_LLM_MODEL = 'tiny';
        process.env.DOCS_ASK_LLM_API_KEY = 'k-test';
        const a = await ask('When are refunds paid back?');
        expect(a.status).toBe(200);
        expect(a.body.answer.answer.markdown).toMatch(
          /^Refunds reach your card within five working days \[1\]\.\n\nSources:\n\n1\. \[Refunds\]\(http[^)]+\/refunds\)$/,
        );
        expect(a.body.answer.sources).toEqual([expect.objectContaining({ type: 'page', space, reason: 'Given to tiny as a passage' })]);
        expect(seen).toHaveLength(1);
        expect(seen[0]).toMatchObject({ url: '/v1/chat/completions', auth: 'Bearer k-test', body: { model: 'tiny', stream: false } });
        expect(seen[0].body.messages[1].content).toContain('Refunds are paid back to the original card in five working days.');
        expect(seen[0].body.messages[1].content).toContain('Question: When are refunds paid back?');
        // A streamed answer with a model: one event, the whole answer with every source.
        const st = await s.api('GET', `/v1/orgs/${org}/ask/stream?format=markdown&query=${encodeURIComponent('refunds card')}`);
        expect(st.body).toHaveLength(1);
        expect(st.body[0].answer.answer.markdown).toContain('Refunds reach your card');
        // No good source: the model is not asked.
        const none = await ask('What colour is the office cat?');
        expect(none.body.answer.answer.markdown).toContain('I could not find a good source');
        expect(seen).toHaveLength(2);
      },
    );
  });

  it('falls back to the extractive answer when the model fails', async () => {
    const before = llmStats.failures;
    await withServer(
      (_req, res) => {
        res.writeHead(500);
        res.end('down');
      },
      async (url) => {
        process.env.DOCS_ASK_LLM_URL = url;
        const a = await ask('When are refunds paid back?');
        expect(a.status).toBe(200);
        expect(a.body.answer.answer.markdown).toContain('> Refunds are paid back to the original card in five working days.');
        expect(llmStats.failures).toBe(before + 1);
      },
    );
  });
});
