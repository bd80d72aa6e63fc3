import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Site questions and answers (src/ask/question-operations.ts, docs/manual/ask.md#site-questions-and-answers):
// the questions a site was asked and the answers it gave, read from the rows ask keeps; counts,
// filters, stats and threads; every answer checked against both specs by s.api.

let s: TestServer;
let org: string;
let space: string;
let site: string;
let siteSpace: string;

async function write(spaceId: string, pages: { title: string; markdown: string }[]) {
  const cr = (await s.api('POST', `/v1/spaces/${spaceId}/change-requests`, { body: { subject: 'Write' } })).body.id;
  const changes = pages.map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } }));
  expect((await s.api('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, { body: { changes } })).status).toBeLessThan(300);
  expect((await s.api('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`)).status).toBe(200);
}

const base = () => `/v1/orgs/${org}/sites/${site}`;
const askSite = (question: string, extra: object = {}) => s.api('POST', `${base()}/ask`, { body: { question, scope: { mode: 'all' }, ...extra } });

beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Help' } })).body.id;
  await write(space, [
    { title: 'Refunds', markdown: 'Customers can ask for a refund within 30 days of purchase. Refunds are paid back to the card in five days.' },
    { title: 'Shipping', markdown: 'Orders ship from Lyon. Express shipping takes two days. Refunds of shipping costs are never made.' },
  ]);
  site = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Help center' } })).body.id;
  siteSpace = (await s.api('POST', `${base()}/site-spaces`, { body: { spaceId: space } })).body.id;
  // Two asks of one question, one of another, one with no good source, one AI response continued.
  await askSite('How do I get a refund?');
  await askSite('how do I get a refund');
  await askSite('What is express shipping?', { context: { siteSpaceId: siteSpace } });
  await askSite('Why is the office cat angry?');
  const first = (await s.api('POST', `${base()}/ai/response`, { body: { input: [{ role: 'user', content: 'refund within days' }] } })).body;
  const firstId = first.at(-1).responseId;
  await s.api('POST', `${base()}/ai/response`, { body: { input: [{ role: 'user', content: 'shipping costs refund' }], previousResponseId: firstId } });
}, 90_000);
afterAll(() => s?.stop());

describe('listSiteQuestions', () => {
  it('lists each question once with its true count of answers, the newest first', async () => {
    const r = await s.api('GET', `${base()}/questions`);
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(5);
    const refund = r.body.items.find((q: any) => q.question === 'how do I get a refund');
    expect(refund).toMatchObject({ object: 'site-question', type: 'how-to', stats: { total: 1, answers: 2, answered: { yes: 2, no: 0 } } });
    const cat = r.body.items.find((q: any) => q.question.includes('office cat'));
    expect(cat).toMatchObject({ type: 'troubleshooting', stats: { answers: 1, answered: { no: 1, yes: 0 } } });
    expect(r.body.items.at(-1).question).toMatch(/refund/i); // created first
  });

  it('pages with a true total, and sorts by answers', async () => {
    const p1 = await s.api('GET', `${base()}/questions?limit=2&sort=stats.answers`);
    expect(p1.body.items).toHaveLength(2);
    expect(p1.body.count).toBe(5);
    expect(p1.body.items[0].stats.answers).toBe(2);
    const p2 = await s.api('GET', `${base()}/questions?limit=2&sort=stats.answers&page=${p1.body.next.page}`);
    expect(p2.body.items.map((q: any) => q.id)).not.toContain(p1.body.items[0].id);
  });

  it('filters by answered and type', async () => {
    const no = await s.api('GET', `${base()}/questions?answered=no`);
    expect(no.body.items.map((q: any) => q.question)).toEqual(['Why is the office cat angry?']);
    const howTo = await s.api('GET', `${base()}/questions?type=how-to`);
    expect(howTo.body.count).toBe(1);
  });

  it('refuses a bad filter (400): a value outside the enum, a range backwards, a topic', async () => {
    expect((await s.api('GET', `${base()}/questions?answered=maybe`)).status).toBe(400);
    const back = await s.api('GET', `${base()}/questions?from=2030-01-01T00:00:00Z&to=2020-01-01T00:00:00Z`);
    expect(back.status).toBe(400);
    expect(back.body.error.message).toMatch(/from: .* is after to/);
    expect((await s.api('GET', `${base()}/questions?topic=t1`)).body.error.message).toMatch(/topic: no topic t1/);
  });

  it('counts stats in a time range only', async () => {
    const r = await s.api('GET', `${base()}/questions?from=2000-01-01T00:00:00Z&to=2000-02-01T00:00:00Z`);
    expect(r.body.count).toBe(5);
    expect(r.body.items.every((q: any) => q.stats.answers === 0)).toBe(true);
  });
});

describe('getSiteQuestionById, listSiteQuestionSources, getSiteQuestionStats', () => {
  it('reads a question, its sources (weights summing to 1), and 404 for an unknown id', async () => {
    const list = (await s.api('GET', `${base()}/questions?type=how-to`)).body.items;
    const q = await s.api('GET', `${base()}/questions/${list[0].id}`);
    expect(q.body).toEqual(list[0]);
    const src = await s.api('GET', `${base()}/questions/${list[0].id}/sources`);
    expect(src.status).toBe(200);
    expect(src.body.items[0]).toMatchObject({ type: 'page', space });
    expect(src.body.items.map((x: any) => x.title)).toContain('Refunds');
    expect(src.body.items.reduce((n: number, x: any) => n + x.weight, 0)).toBeCloseTo(1);
    expect((await s.api('GET', `${base()}/questions/${org}.qnope`)).status).toBe(404);
    expect((await s.api('GET', `${base()}/questions/${org}.qnope/sources`)).status).toBe(404);
  });

  it('aggregates every question and answer', async () => {
    const r = await s.api('GET', `${base()}/question-stats`);
    expect(r.body).toMatchObject({
      total: 5,
      answers: 6,
      answered: { yes: 5, partially: 0, no: 1 },
      feedback: { unrated: 6 },
      channelTypes: { site: 6 },
    });
    expect(r.body.weeklyPulse).toHaveLength(13);
    expect(r.body.weeklyPulse[12]).toBe(6);
    const none = await s.api('GET', `${base()}/question-stats?answered=no`);
    expect(none.body).toMatchObject({ total: 1, answers: 1 });
  });
});

describe('answers', () => {
  it('lists answers, newest first, with the response; threads follow previousResponseId', async () => {
    const r = await s.api('GET', `${base()}/answers`);
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(6);
    const last = r.body.items[0];
    expect(last).toMatchObject({ object: 'site-question-answer', input: { raw: 'shipping costs refund' }, thread: { previous: expect.any(String) } });
    expect(last.response.steps.length).toBeGreaterThan(0);
    const thread = await s.api('GET', `${base()}/answers/${last.id}/thread`);
    expect(thread.body.map((a: any) => a.input.raw)).toEqual(['refund within days', 'shipping costs refund']);
    const inThread = await s.api('GET', `${base()}/answers?thread=${last.thread.id}`);
    expect(inThread.body.count).toBe(2);
    const one = await s.api('GET', `${base()}/answers/${last.id}`);
    expect(one.body).toEqual(last);
    const sources = await s.api('GET', `${base()}/answers/${last.id}/sources`);
    expect(sources.body.count).toBeGreaterThan(0);
  });

  it('filters by question and helpfulness; 400 for an unknown question or thread; 404 for an unknown answer', async () => {
    const q = (await s.api('GET', `${base()}/questions?type=how-to`)).body.items[0];
    expect((await s.api('GET', `${base()}/answers?question=${q.id}`)).body.count).toBe(2);
    expect((await s.api('GET', `${base()}/answers?helpfulness=low`)).body.count).toBe(1);
    expect((await s.api('GET', `${base()}/answers?question=nope`)).status).toBe(400);
    expect((await s.api('GET', `${base()}/answers?thread=nope`)).status).toBe(400);
    for (const p of ['', '/thread', '/sources']) expect((await s.api('GET', `${base()}/answers/${org}.rnope${p}`)).status).toBe(404);
  });

  it("keeps an ask's answer out of streamExistingAIResponseInSite", async () => {
    const ask = (await s.api('GET', `${base()}/answers?question.type=troubleshooting`)).body.items[0];
    expect((await s.api('GET', `${base()}/ai/response/${ask.id}`)).status).toBe(404);
  });
});

describe('access', () => {
  it('refuses a guest who cannot see the site (403), and another organization (404)', async () => {
    const { token } = await addUser(s.ctx, org, null);
    expect((await s.api('GET', `${base()}/questions`, { token })).status).toBe(403);
    expect((await s.api('GET', `${base()}/question-stats`, { token })).status).toBe(403);
    const other = await addUser(s.ctx);
    expect([403, 404]).toContain((await s.api('GET', `${base()}/answers`, { token: other.token })).status);
  });
});
