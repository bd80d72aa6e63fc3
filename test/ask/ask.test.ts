import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetch } from 'undici';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Ask (src/ask, docs/manual/ask.md): answers quoted from the search engine's passages with their
// sources, streamed as the contract's server-sent events (every event checked against both specs
// by s.api), questions counted, recommended and replayed, and what a caller may read respected.

let s: TestServer;
let org: string;
let spaceA: string;
let spaceB: string;
let site: string;
let siteSpaceA: string;

const PAGES_A = [
  {
    title: 'Refunds',
    markdown:
      'Customers can ask for a refund within 30 days of purchase. Refunds are paid back to the original card in five working days.\n\n## Partial refunds\n\nA partial refund returns part of an order. Shipping costs are never refunded.',
  },
  { title: 'Shipping', markdown: 'Orders ship from our warehouse in Lyon. Express shipping takes two days.' },
];
const PAGES_B = [{ title: 'Secret plans', markdown: 'The zeppelin launch is scheduled for spring. Only the board knows the zeppelin code.' }];

async function write(spaceId: string, pages: { title: string; markdown: string }[]) {
  const cr = (await s.api('POST', `/v1/spaces/${spaceId}/change-requests`, { body: { subject: 'Write' } })).body.id;
  const changes = pages.map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } }));
  const r = await s.api('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, { body: { changes } });
  expect(r.status).toBeLessThan(300);
  expect((await s.api('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`)).status).toBe(200);
}

beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  spaceA = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Help' } })).body.id;
  spaceB = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Board' } })).body.id;
  await write(spaceA, PAGES_A);
  await write(spaceB, PAGES_B);
  site = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Help center' } })).body.id;
  siteSpaceA = (await s.api('POST', `/v1/orgs/${org}/sites/${site}/site-spaces`, { body: { spaceId: spaceA } })).body.id;
}, 60_000);
afterAll(() => s?.stop());

const ask = (query: string, extra = '') => s.api('POST', `/v1/orgs/${org}/ask${extra}`, { body: { query } });

describe('askInOrganization', () => {
  it('quotes the best passages with their sources, deterministically', async () => {
    const a = await ask('When are refunds paid back to the card?', '?format=markdown');
    expect(a.status).toBe(200);
    const { answer } = a.body;
    expect(answer.answer.markdown).toContain('Refunds are paid back to the original card in five working days.');
    expect(answer.answer.markdown).toMatch(/\*\*\[Refunds\]\(http:\/\/[^)]+\/o\/[^)]+\/s\/[^)]+\/refunds\)\*\*/);
    expect(answer.sources[0]).toMatchObject({ type: 'page', space: spaceA, sections: [expect.stringMatching(/#\d+$/)] });
    expect(answer.sources[0].revision).toBe((await s.api('GET', `/v1/spaces/${spaceA}`)).body.revision);
    const again = await ask('When are refunds paid back to the card?', '?format=markdown');
    expect(again.body).toEqual(a.body);
  });

  it('answers a JSON document by default', async () => {
    const a = await ask('partial refund shipping costs');
    expect(a.body.answer.answer.document).toMatchObject({ object: 'document', nodes: expect.any(Array) });
    expect(JSON.stringify(a.body.answer.answer.document)).toContain('Shipping costs are never refunded.');
  });

  it('says so (and quotes nothing) when no page answers the question', async () => {
    const a = await ask('What colour is the office cat?', '?format=markdown');
    expect(a.status).toBe(200);
    expect(a.body.answer.sources).toEqual([]);
    expect(a.body.answer.answer.markdown).toContain('I could not find a good source');
  });

  it('refuses a question over the length limit (400) and an empty one, recording nothing', async () => {
    const before = (await s.api('GET', `/v1/orgs/${org}/ask/questions`)).body.questions;
    const long = await ask('refund '.repeat(80));
    expect(long.status).toBe(400);
    expect(long.body.error.message).toMatch(/query: at most 512 characters/);
    expect((await ask('   ')).status).toBe(400);
    const stream = await s.api('GET', `/v1/orgs/${org}/ask/stream?query=${encodeURIComponent('x'.repeat(513))}`);
    expect(stream.status).toBe(400);
    expect((await s.api('GET', `/v1/orgs/${org}/ask/questions`)).body.questions).toEqual(before);
  });

  it('quotes only spaces the caller may read', async () => {
    // A guest of the organization given the Help space only.
    const { userId, token } = await addUser(s.ctx, org, null);
    const granted = await s.api('POST', `/v1/spaces/${spaceA}/permissions`, { body: { users: [userId], role: 'read' } });
    expect(granted.status).toBeLessThan(300);
    const owner = await s.api('POST', `/v1/orgs/${org}/ask?format=markdown`, { body: { query: 'zeppelin launch' } });
    expect(owner.body.answer.sources.map((x: any) => x.space)).toEqual([spaceB]);
    const guest = await s.api('POST', `/v1/orgs/${org}/ask?format=markdown`, { body: { query: 'zeppelin launch' }, token });
    expect(guest.status).toBe(200);
    expect(guest.body.answer.sources).toEqual([]);
    expect(guest.body.answer.answer.markdown).not.toContain('zeppelin code');
  });
});

describe('streamed answers (server-sent events)', () => {
  it('streams the answer growing, one event per quoted source, followups on the last', async () => {
    const res = await fetch(`${s.url}/v1/orgs/${org}/ask/stream?format=markdown&query=${encodeURIComponent('refund shipping')}`, {
      headers: { authorization: `Bearer ${s.token}` },
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    expect(text.startsWith('data: {"type":"answer"')).toBe(true);
    const checked = await s.api('GET', `/v1/orgs/${org}/ask/stream?format=markdown&query=${encodeURIComponent('refund shipping')}`);
    const events = checked.body as any[];
    expect(events.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < events.length; i++) {
      expect(events[i].answer.answer.markdown.startsWith(events[i - 1].answer.answer.markdown)).toBe(true);
      expect(events[i].answer.sources.length).toBe(i + 1);
    }
    expect(events.slice(0, -1).every((e) => e.answer.followupQuestions.length === 0)).toBe(true);
  });

  it('a site question searches only the site scope the caller may read', async () => {
    const r = await s.api('POST', `/v1/orgs/${org}/sites/${site}/ask?format=markdown`, { body: { question: 'zeppelin launch', scope: { mode: 'all' } } });
    expect(r.status).toBe(200);
    expect(r.body.at(-1).answer.sources).toEqual([]);
    const ok = await s.api('POST', `/v1/orgs/${org}/sites/${site}/ask?format=markdown`, {
      body: { question: 'Can I get a refund?', scope: { mode: 'specific', siteSpaceIds: [siteSpaceA] }, context: { siteSpaceId: siteSpaceA } },
    });
    expect(ok.body.at(-1).answer.sources[0].space).toBe(spaceA);
  });

  it("refuses a scope naming another site's site space (400) and a question over 512 characters (400)", async () => {
    const bad = await s.api('POST', `/v1/orgs/${org}/sites/${site}/ask`, { body: { question: 'refund', scope: { mode: 'specific', siteSpaceIds: ['nope'] } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/scope.siteSpaceIds: site space nope is not in site/);
    const long = await s.api('POST', `/v1/orgs/${org}/sites/${site}/ask`, { body: { question: 'a'.repeat(513), scope: { mode: 'all' } } });
    expect(long.status).toBe(400);
  });
});

describe('questions are counted and recommended', () => {
  it('recommends the most asked answered questions first, then page titles; never unanswered ones', async () => {
    for (let i = 0; i < 3; i++)
      await s.api('POST', `/v1/orgs/${org}/sites/${site}/ask`, { body: { question: 'How do I ship express?', scope: { mode: 'all' } } });
    await s.api('POST', `/v1/orgs/${org}/sites/${site}/ask`, { body: { question: 'What is the office cat called?', scope: { mode: 'all' } } });
    const r = await s.api('GET', `/v1/orgs/${org}/sites/${site}/ask/questions`);
    const qs = r.body.map((e: any) => e.question);
    expect(qs[0]).toBe('How do I ship express?');
    expect(qs).toContain('What is Refunds?');
    expect(qs).not.toContain('What is the office cat called?');
    // Organization questions are their own list.
    for (let i = 0; i < 3; i++) await ask('Which warehouse ships orders?');
    const orgQs = (await s.api('GET', `/v1/orgs/${org}/ask/questions`)).body.questions;
    expect(orgQs[0]).toBe('Which warehouse ships orders?');
    expect(orgQs).not.toContain('What colour is the office cat?');
    const streamed = (await s.api('GET', `/v1/orgs/${org}/ask/questions/stream`)).body.map((e: any) => e.question);
    expect(streamed).toEqual(orgQs);
  });

  it("filters a site's recommendations by site space; an unknown one is 400", async () => {
    const r = await s.api('GET', `/v1/orgs/${org}/sites/${site}/ask/questions?siteSpaceId=${siteSpaceA}`);
    expect(r.status).toBe(200);
    expect((await s.api('GET', `/v1/orgs/${org}/sites/${site}/ask/questions?siteSpaceId=nope`)).status).toBe(400);
  });
});

describe('AI responses on a site', () => {
  it('streams start, document, followups and finish; the response replays the same', async () => {
    const r = await s.api('POST', `/v1/orgs/${org}/sites/${site}/ai/response`, {
      body: { input: [{ role: 'user', content: 'refund within how many days?' }] },
    });
    expect(r.status).toBe(200);
    const events = r.body as any[];
    expect(events[0].type).toBe('response_start');
    expect(events.at(-1)).toMatchObject({ type: 'response_finish', messageId: events[0].messageId, responseId: expect.any(String) });
    expect(events.at(-1).response.id).toBe(events.at(-1).responseId);
    expect(JSON.stringify(events.filter((e) => e.type === 'response_document'))).toContain('within 30 days of purchase');
    const id = events.at(-1).responseId;
    const replay = await s.api('GET', `/v1/orgs/${org}/sites/${site}/ai/response/${encodeURIComponent(id)}`);
    expect(replay.body).toEqual(events);
    const next = await s.api('POST', `/v1/orgs/${org}/sites/${site}/ai/response`, {
      body: { previousResponseId: id, input: [{ role: 'user', content: 'and partial refunds?' }] },
    });
    expect(next.body.at(-1).response.previous).toBe(id);
  });

  it('404 for an unknown response or one of another site; 400 for an input over 2048 characters', async () => {
    expect((await s.api('GET', `/v1/orgs/${org}/sites/${site}/ai/response/nope`)).status).toBe(404);
    expect((await s.api('GET', `/v1/orgs/${org}/sites/${site}/ai/response/${org}.rnope`)).status).toBe(404);
    const long = await s.api('POST', `/v1/orgs/${org}/sites/${site}/ai/response`, { body: { input: [{ role: 'user', content: 'a'.repeat(2049) }] } });
    expect(long.status).toBe(400);
    const unknownPrev = await s.api('POST', `/v1/orgs/${org}/sites/${site}/ai/response`, {
      body: { previousResponseId: 'nope', input: [{ role: 'user', content: 'refund' }] },
    });
    expect(unknownPrev.status).toBe(404);
  });
});

describe('over MCP', () => {
  it('a streamed operation is one tool result: the list of its events', async () => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'streamAskInOrganization', arguments: { organizationId: org, query: 'When are refunds paid back to the card?', format: 'markdown' } },
      }),
    });
    const answer = (await res.json()) as any;
    const text = answer.result.content.map((c: any) => c.text).join('');
    expect(text).toContain('Refunds are paid back to the original card in five working days.');
    expect(text).toContain('"type": "answer"');
  });
});

describe('outsiders', () => {
  it('a user of no membership gets 404 from every ask operation, and nothing is counted', async () => {
    const { token } = await addUser(s.ctx);
    const before = (await s.api('GET', `/v1/orgs/${org}/ask/questions`)).body.questions;
    const calls: [string, string, unknown?][] = [
      ['POST', `/v1/orgs/${org}/ask`, { query: 'refund' }],
      ['GET', `/v1/orgs/${org}/ask/stream?query=refund`],
      ['GET', `/v1/orgs/${org}/ask/questions`],
      ['GET', `/v1/orgs/${org}/ask/questions/stream`],
      ['POST', `/v1/orgs/${org}/sites/${site}/ask`, { question: 'refund', scope: { mode: 'all' } }],
      ['GET', `/v1/orgs/${org}/sites/${site}/ask/questions`],
      ['POST', `/v1/orgs/${org}/sites/${site}/ai/response`, { input: [{ role: 'user', content: 'refund' }] }],
      ['GET', `/v1/orgs/${org}/sites/${site}/ai/response/${org}.rnope`],
    ];
    for (const [method, path, body] of calls) expect((await s.api(method, path, { token, body })).status, `${method} ${path}`).toBe(404);
    expect((await s.api('GET', `/v1/orgs/${org}/ask/questions`)).body.questions).toEqual(before);
  });
});
