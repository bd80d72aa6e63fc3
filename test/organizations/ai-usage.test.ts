import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/kernel/clock.js';
import { recordAIUsage } from '../../src/organizations/ai-usage.js';
import { docs } from '../helpers/cli.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';

// getOrganizationAIUsage (docs/manual/organizations.md#ai-usage): one credit per question answered
// by ask and per translation run, by UTC calendar bucket (weeks from Monday), empty buckets
// included; admins only; a range older than two years, or reversed, is a 400.

let s: TestServer;
let org: string;
const usage = (q: string, token?: string) => s.api('GET', `/v1/orgs/${org}/billing/ai-usage?${q}`, { token });
beforeAll(async () => {
  // A fixed now, so the past month's dates stay within the two years a range may reach.
  s = await startServer({ clock: new ManualClock(Date.parse('2026-11-26T10:00:00.000Z')) });
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s?.stop());

describe('AI usage', () => {
  it('counts each question asked (organization and site alike) as one ask credit on its UTC day', async () => {
    const now = s.ctx.clock.now();
    const today = now.toISOString().slice(0, 10);
    const from = new Date(Date.parse(`${today}T00:00:00Z`) - 2 * 86_400_000).toISOString();
    const before = (await usage(`from=${from}&to=${now.toISOString()}`)).body;
    expect(before.periods.map((p: any) => p.credits)).toEqual([0, 0, 0]);
    expect((await s.api('POST', `/v1/orgs/${org}/ask`, { body: { query: 'how do I install it?' } })).status).toBe(200);
    expect((await s.api('POST', `/v1/orgs/${org}/ask`, { body: { query: 'how do I install it?' } })).status).toBe(200);
    const after = (await usage(`from=${from}&to=${now.toISOString()}`)).body;
    expect(after.periods.at(-1)).toEqual({ date: today, credits: 2, features: [{ feature: 'ask', credits: 2, creditsPercent: 100 }] });
    expect(after.from).toBe(from);
  });

  it("buckets by calendar week (from Monday), month and year, empty ones included, with each feature's share", async () => {
    // Usage written on fixed days of a past month (as the runs would have).
    await s.ctx.store.write((tx) => {
      for (const [day, feature] of [
        ['2026-03-02', 'ask'], // a Monday
        ['2026-03-08', 'ask'], // the Sunday of the same week
        ['2026-03-08', 'translation'],
        ['2026-03-09', 'translation'], // the next Monday
        ['2026-03-31', 'ask'],
      ] as const)
        recordAIUsage(tx, org, feature, `${day}T12:00:00.000Z`);
    });
    const weeks = (await usage('from=2026-03-02T00:00:00Z&to=2026-03-16T00:00:00Z&interval=week')).body;
    expect(weeks.periods).toEqual([
      {
        date: '2026-03-02',
        credits: 3,
        features: [
          { feature: 'ask', credits: 2, creditsPercent: 66.67 },
          { feature: 'translation', credits: 1, creditsPercent: 33.33 },
        ],
      },
      { date: '2026-03-09', credits: 1, features: [{ feature: 'translation', credits: 1, creditsPercent: 100 }] },
    ]);
    // An edge bucket counts only the requested days: March from the 8th, April empty.
    const months = (await usage('from=2026-03-08T00:00:00Z&to=2026-05-01T00:00:00Z&interval=month')).body;
    expect(months.periods.map((p: any) => [p.date, p.credits])).toEqual([
      ['2026-03-01', 4],
      ['2026-04-01', 0],
    ]);
    const days = (await usage('from=2026-03-07T00:00:00Z&to=2026-03-10T00:00:00Z')).body;
    expect(days.periods.map((p: any) => [p.date, p.credits])).toEqual([
      ['2026-03-07', 0],
      ['2026-03-08', 2],
      ['2026-03-09', 1],
    ]);
    expect((await usage('from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00Z&interval=year')).body.periods).toMatchObject([{ date: '2026-01-01' }]);
  });

  it('the CLI shows it; admins only; bad ranges are 400 naming the field', async () => {
    const env = { DOCS_API_URL: s.url, DOCS_TOKEN: s.token };
    const out = await docs(
      ['orgs', 'ai-usage', '--org', org, '--from', '2026-03-02T00:00:00Z', '--to', '2026-03-09T00:00:00Z', '--interval', 'week', '--json'],
      env,
    );
    expect([out.status, out.json.periods[0].credits]).toEqual([0, 3]);
    const editor = await addUser(s.ctx, org, 'edit');
    const refused = await usage('from=2026-03-02T00:00:00Z&to=2026-03-09T00:00:00Z', editor.token);
    expect([refused.status, refused.body.error.message]).toEqual([403, expect.stringContaining('admin')]);
    const old = await usage('from=2020-01-01T00:00:00Z&to=2026-03-09T00:00:00Z');
    expect([old.status, old.body.error.message]).toEqual([400, expect.stringMatching(/^from: .*two years/)]);
    const reversed = await usage('from=2026-03-09T00:00:00Z&to=2026-03-02T00:00:00Z');
    expect([reversed.status, reversed.body.error.message]).toEqual([400, expect.stringMatching(/^to: /)]);
    expect((await usage('to=2026-03-02T00:00:00Z')).status).toBe(400);
  });
});
