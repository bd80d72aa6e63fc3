import { describe, expect, it } from 'vitest';
import { deleteEventsOf, EVENT_TYPES, type InsightEvent, packBatch, recordEvents } from '../../src/sites/insights.js';
import { type AggregationQuery, aggregate, answer, collectRaw, planOf, rangeOf } from '../../src/sites/insights-query.js';
import { collectRollups } from '../../src/sites/insights-rollup-query.js';
import { FANOUT, openRollupId, RollupBuilder, rollupOf, rollupsOf, SEAL_EVENTS } from '../../src/sites/insight-rollups.js';
import type { InsightBatchRecord, InsightRollupRecord, SiteRecord } from '../../src/sites/model.js';
import { SiteInsightBatches } from '../../src/sites/tables.js';
import type { ShardBackend, ShardData } from '../../src/store/backend.js';
import { MemoryBackend } from '../../src/store/memory-backend.js';
import { ShardStore } from '../../src/store/shard-store.js';
import { TABLES } from '../../src/store/tables.js';

// The rollups of site insights (src/sites/insight-rollups.ts, docs/manual/insights.md#rollups):
// an aggregation summed from rollups answers exactly what decoding every event answers, for every
// column, grouping, filter, count and range the rollups take (and says it cannot for the others);
// rollups are written in the commit of their batch, count each batch once, and are compacted.

const NOW = Date.parse('2026-03-10T12:34:56.789Z');
const HOUR = 3_600_000;
const DAY = 86_400_000;
const site = { id: 'site1', organization: 'org1' } as SiteRecord;

/** A seeded generator (mulberry32): the same events on every run. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomEvents(seed: number, n: number, span = 40 * DAY): InsightEvent[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const maybe = <T>(xs: readonly T[]) => (r() < 0.3 ? null : pick(xs));
  return Array.from({ length: n }, () => {
    const type = pick(EVENT_TYPES.slice(0, 12));
    const values: InsightEvent['values'] = {
      url: pick(['https://d.example/a', 'https://d.example/b?utm_source=news&utm_medium=mail', 'https://d.example/c?utm_campaign=x', 'not a url']),
      section: maybe(['sec1', 'sec2']),
      siteSpace: maybe(['ss1']),
      shareKey: maybe(['k1']),
      space: maybe(['sp1', 'sp2']),
      page: maybe(['p1', 'p2', 'p3']),
      display: maybe(['embed']),
      visitor: pick(['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7']),
      session: pick(['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 's9']),
      language: maybe(['en', 'fr']),
      referrer: maybe(['https://google.example/?q=1', 'https://news.example/x', 'weird']),
      device: maybe(['desktop', 'mobile']),
      browser: maybe(['chrome', 'firefox']),
      os: maybe(['linux', 'ios']),
      bot: maybe(['googlebot']),
      claims: maybe(['{"plan":"pro","team":"a"}', '{"plan":"free"}', '{"n":3}']),
    };
    if (r() < 0.4) values.query = pick(['install', 'usage', 'api']);
    if (r() < 0.3) values.rating = pick(['good', 'ok', 'bad']);
    if (r() < 0.2) values.comment = pick(['nice', 'meh']);
    if (r() < 0.2) values.askRating = pick(['1', '-1']);
    if (r() < 0.3) values.linkTarget = pick(['{"kind":"url","url":"https://x.example/a"}', '{"kind":"page","page":"p1"}', '{"kind":"weird"}']);
    if (r() < 0.3) values.linkPosition = pick(['content', 'header']);
    if (r() < 0.2) values.apiPath = pick(['/a', '/b']);
    if (r() < 0.2) values.apiMethod = pick(['GET', 'POST']);
    if (r() < 0.2) values.adDomain = pick(['ads.example']);
    if (r() < 0.2) values.adPlacement = pick(['top']);
    if (r() < 0.1) values.trademark = pick(['footer']);
    return { ts: NOW - Math.floor(r() * span) + 60_000, type, values };
  });
}

/** Batches of random events, in time order as a site writes them. */
function randomBatches(seed: number, count: number, size: number): InsightBatchRecord[] {
  const events = randomEvents(seed, count * size).sort((a, b) => a.ts - b.ts);
  return Array.from({ length: count }, (_, i) => packBatch(site, events.slice(i * size, (i + 1) * size), `site1:b${i}`, new Date(NOW)));
}

const COLUMNS = [
  'eventType',
  'url',
  'siteSection',
  'siteSpace',
  'siteShareKey',
  'displayContext',
  'page',
  'visitorGeoCountry',
  'visitorDevice',
  'visitorBrowser',
  'visitorOS',
  'visitorBot',
  'visitorLanguage',
  'eventLinkTargetValue',
  'eventLinkTargetKind',
  'eventLinkTargetDomain',
  'eventLinkPosition',
  'eventAPIOperationPath',
  'eventAPIOperationMethod',
  'eventSearchQuery',
  'eventPageFeedbackRating',
  'eventPageFeedbackComment',
  'eventAskResponseRating',
  'referrer',
  'referrerDomain',
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'utmTerm',
  'utmContent',
  'visitorClaimProperty',
  'visitorClaim',
  'eventAdDomain',
  'eventAdPlacement',
  'eventTrademarkPlacement',
];
const col = (column: string) => (column === 'visitorClaim' ? { column, claim: 'plan' } : { column });
const RANGES: unknown[] = ['last24Hours', 'last30Days', 'lastYear', { from: '2026-02-20T00:00:00.000Z', to: '2026-03-05T23:59:59.999Z' }];

/** Every query the rollups take, one column (grouped, filtered, with time and type) at a time, and the counts alone. */
function* queries(valuesOf: (column: string) => unknown[]): Generator<AggregationQuery> {
  for (const range of RANGES) {
    for (const interval of ['hour', 'day', 'week', 'month'] as const) {
      const time = { column: 'datetime', interval };
      yield { range, select: [time, { column: 'eventsCount' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }] };
      yield {
        range,
        groupBy: [time, { column: 'eventType' }],
        select: [time, { column: 'eventType' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }],
      };
      yield { range, select: [time, { column: 'visitorsCount' }], where: [{ column: 'eventType', values: ['page_view', 'link_click'] }] };
    }
    yield { range, select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }] };
    yield { range, select: [{ column: 'visitorsCount' }], where: [{ column: 'visitorsCount', operator: 'greaterThan', values: [2] }] };
    for (const c of COLUMNS) {
      const values = valuesOf(c).slice(0, 2);
      yield { range, groupBy: [col(c)] };
      yield { range, groupBy: [col(c)], limit: 3, order: { by: col(c), direction: 'desc' } };
      yield {
        range,
        groupBy: [{ column: 'datetime', interval: 'day' }, col(c), { column: 'eventType' }],
        where: [{ column: 'eventType', operator: 'notIn', values: ['search_open'] }],
      };
      yield { range, groupBy: [{ column: 'datetime', interval: 'month' }], where: [{ ...col(c), values }] };
      yield {
        range,
        groupBy: [col(c)],
        where: [
          { ...col(c), operator: 'notIn', values },
          { column: 'eventsCount', operator: 'greaterThanOrEqual', values: [2] },
        ],
      };
      yield { range, groupBy: [{ column: 'eventType' }], where: [{ ...col(c), operator: 'greaterThan', values: values.slice(0, 1) }] };
    }
  }
}

/** Rollups of these batches as a site's writes leave them: sealed and merged ones, and an open one. */
function rollupsLike(batches: InsightBatchRecord[]): InsightRollupRecord[] {
  const out: InsightRollupRecord[] = [];
  let b = new RollupBuilder();
  batches.forEach((x, i) => {
    b.addBatch(x);
    if (i % 7 === 6) {
      out.push(b.toRecord(`site1:r${i}`, site, 1));
      b = new RollupBuilder();
    }
  });
  out.push(b.toRecord(openRollupId('site1'), site, 0));
  // Two merged, as compaction merges them.
  const merged = new RollupBuilder().addRollup(out[0]!).addRollup(out[1]!).toRecord('site1:m', site, 2);
  return [merged, ...out.slice(2)];
}

describe('insights rollups', () => {
  const batches = randomBatches(7, 60, 50);
  const rollups = rollupsLike(batches);

  it('answer what decoding the events answers, for every query they take; say so for the others', () => {
    const valuesOf = (column: string) => (aggregate(batches, { range: 'lastYear', groupBy: [col(column)] }, NOW).columns[0]!.values as unknown[]) ?? [];
    let taken = 0;
    let total = 0;
    for (const q of queries(valuesOf)) {
      total++;
      const plan = planOf(q, NOW);
      const groups = collectRollups(rollups, plan);
      const raw = answer(plan, collectRaw(batches, plan));
      // Hours cut only by a from/to range off the hour: every preset is taken.
      if (typeof q.range === 'string') expect(groups, JSON.stringify(q)).toBeDefined();
      if (!groups) continue;
      taken++;
      expect(answer(plan, groups), JSON.stringify(q)).toEqual(raw);
    }
    expect(taken).toBeGreaterThan(total * 0.8);
    expect(raw(batches).events).toBe(3000);
  });

  it('take presets, which start on the hour', () => {
    expect(rangeOf('last24Hours', NOW)).toEqual([Date.parse('2026-03-09T12:00:00.000Z'), NOW]);
    expect(rangeOf('last30Days', NOW)[0]).toBe(Date.parse('2026-02-08T12:00:00.000Z'));
    expect(rangeOf('last3Months', NOW)[0]).toBe(Date.parse('2025-12-10T12:00:00.000Z'));
  });

  it('leave to the events what they cannot count: two fields, distinct counts by a field, ratings, datetime filters, cut hours', () => {
    const no = (q: AggregationQuery) => expect(collectRollups(rollups, planOf(q, NOW)), JSON.stringify(q)).toBeUndefined();
    no({ range: 'last30Days', groupBy: [{ column: 'url' }, { column: 'visitorDevice' }] });
    no({ range: 'last30Days', groupBy: [{ column: 'url' }], where: [{ column: 'visitorOS', values: ['linux'] }] });
    no({ range: 'last30Days', select: [{ column: 'url' }, { column: 'visitorsCount' }] });
    no({ range: 'last30Days', select: [{ column: 'pageFeedbackRating' }] });
    no({ range: 'last30Days', where: [{ column: 'datetime', operator: 'greaterThan', values: ['2026-03-01T00:00:00Z'] }] });
    no({ range: { from: '2026-03-01T10:30:00Z', to: '2026-03-09T00:00:00Z' } });
    // The same range on the hour is taken.
    expect(collectRollups(rollups, planOf({ range: { from: '2026-03-01T10:00:00Z', to: '2026-03-09T00:59:59.999Z' } }, NOW))).toBeDefined();
  });

  it('merge to the same counts in any order and grouping', () => {
    const one = rollupOf(batches, site, 'site1:all', 1);
    const q: AggregationQuery = {
      range: 'lastYear',
      groupBy: [{ column: 'datetime', interval: 'hour' }, { column: 'eventType' }],
      select: [
        { column: 'datetime', interval: 'hour' },
        { column: 'eventType' },
        { column: 'eventsCount' },
        { column: 'visitorsCount' },
        { column: 'sessionsCount' },
      ],
    };
    const plan = planOf(q, NOW);
    const reversed = new RollupBuilder();
    for (const r of [...rollups].reverse()) reversed.addRollup(r);
    expect(answer(plan, collectRollups([one], plan)!)).toEqual(answer(plan, collectRollups(rollups, plan)!));
    expect(answer(plan, collectRollups([reversed.toRecord('site1:x', site, 3)], plan)!)).toEqual(answer(plan, collectRaw(batches, plan)));
    expect(one.batches).toHaveLength(batches.length);
  });
});

/** Events counted by the rollups of a site, and the batches each counts. */
function raw(batches: InsightBatchRecord[]) {
  return { events: batches.reduce((n, b) => n + b.dt.length, 0) };
}

/** A backend that refuses the next commit when told (a crash before the commit point). */
class Failing implements ShardBackend {
  fail = false;
  commits: string[][] = [];
  constructor(readonly inner: MemoryBackend) {}
  open() {
    return this.inner.open();
  }
  load(keys: string[]) {
    return this.inner.load(keys);
  }
  keys() {
    return this.inner.keys();
  }
  async commit(changes: Map<string, ShardData | null>) {
    if (this.fail) throw new Error('disk gone');
    this.commits.push([...changes.keys()]);
    return this.inner.commit(changes);
  }
  close() {
    return this.inner.close();
  }
}

describe('insights rollups in the store', () => {
  const write = (store: ShardStore, events: InsightEvent[]) => store.write((tx) => recordEvents(tx as any, site, events, new Date(NOW)));
  const state = (store: ShardStore) =>
    store.read((tx) => ({ batches: tx.find(SiteInsightBatches as string, 'site', 'site1') as InsightBatchRecord[], rollups: rollupsOf(tx as any, 'site1') }));

  it('are written in the commit of their batch; a failed commit leaves neither', async () => {
    const inner = new MemoryBackend();
    const backend = new Failing(inner);
    const store = await ShardStore.open(backend, TABLES);
    await write(store, randomEvents(1, 10, HOUR));
    const commit = backend.commits.at(-1)!;
    expect(commit.some((k) => k.startsWith('insights/site1/'))).toBe(true);
    expect(commit).toContain('insightrollups/site1/open');
    backend.fail = true;
    await expect(write(store, randomEvents(2, 10, HOUR))).rejects.toThrow(/durable/);
    backend.fail = false;
    await store.close();
    const again = await ShardStore.open(new Failing(inner), TABLES);
    const { batches, rollups } = await state(again);
    expect(batches).toHaveLength(1);
    expect(rollups.flatMap((r) => r.batches)).toEqual(batches.map((b) => b.id));
    expect(rollups[0]!.events).toBe(10);
    await again.close();
  });

  it('count every batch once, are sealed and compacted (fewer than FANOUT a level), and sum to the events', async () => {
    const store = await ShardStore.open(new MemoryBackend(), TABLES);
    const per = 150;
    const writes = Math.ceil((SEAL_EVENTS * FANOUT * 1.5) / per);
    const events = randomEvents(3, writes * per, 10 * DAY).sort((a, b) => a.ts - b.ts);
    // Concurrent writes: one group commit runs several write functions.
    for (let i = 0; i < writes; i += 4)
      await Promise.all([0, 1, 2, 3].map((j) => (i + j < writes ? write(store, events.slice((i + j) * per, (i + j + 1) * per)) : undefined)));
    const { batches, rollups } = await state(store);
    expect(batches).toHaveLength(writes);
    const counted = rollups.flatMap((r) => r.batches).sort();
    expect(counted).toEqual(batches.map((b) => b.id).sort());
    expect(rollups.reduce((n, r) => n + r.events, 0)).toBe(writes * per);
    const levels = new Map<number, number>();
    for (const r of rollups) levels.set(r.level, (levels.get(r.level) ?? 0) + 1);
    expect(levels.get(2)).toBeGreaterThanOrEqual(1); // FANOUT sealed ones were merged
    for (const [level, n] of levels) expect(n, `level ${level}`).toBeLessThan(level === 0 ? 2 : FANOUT);
    expect(rollups.find((r) => r.level === 0)?.id ?? openRollupId('site1')).toBe(openRollupId('site1'));
    // To the end of the hour: some events are stamped a minute ahead (as a client's clock may be).
    const range = { from: '2026-02-01T00:00:00Z', to: '2026-03-10T12:59:59.999Z' };
    const q: AggregationQuery = { range, select: [{ column: 'datetime', interval: 'day' }, { column: 'eventsCount' }, { column: 'visitorsCount' }] };
    const plan = planOf(q, NOW);
    expect(answer(plan, collectRollups(rollups, plan)!)).toEqual(aggregate(batches, q, NOW));
    await store.close();
  });

  it("go with their events when a site's events are deleted", async () => {
    const store = await ShardStore.open(new MemoryBackend(), TABLES);
    for (let i = 0; i < 3; i++) await write(store, randomEvents(10 + i, SEAL_EVENTS, HOUR));
    expect((await state(store)).rollups.length).toBeGreaterThan(1);
    await store.write((tx) => deleteEventsOf(tx as any, 'site1'));
    expect(await state(store)).toEqual({ batches: [], rollups: [] });
    await store.close();
  });

  it('count the batches a site stored before rollups when its first rollup is written', async () => {
    const inner = new MemoryBackend();
    let store = await ShardStore.open(inner, TABLES);
    const old = randomBatches(4, 3, 20);
    await store.write((tx) => old.forEach((b) => tx.put(SiteInsightBatches as string, b)));
    expect((await state(store)).rollups).toHaveLength(0);
    await store.close();
    store = await ShardStore.open(inner, TABLES);
    await write(store, randomEvents(5, 5, HOUR));
    const { batches, rollups } = await state(store);
    expect(rollups.flatMap((r) => r.batches).sort()).toEqual(batches.map((b) => b.id).sort());
    expect(rollups.reduce((n, r) => n + r.events, 0)).toBe(65);
    await store.close();
  });
});

describe('insights rollups through the API', () => {
  it('concurrent posts that seal and compact rollups in one commit are all recorded and counted', async () => {
    const { startServer } = await import('../helpers/server.js');
    const s = await startServer();
    try {
      const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
      const id = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Rollups' } })).body.id;
      const E = `/v1/orgs/${org}/sites/${id}/insights/events`;
      const ev = (i: number) => ({
        type: 'page_view',
        session: {
          visitorId: `v${i % 40}`,
          sessionId: `s${i % 90}`,
          cookies: {},
          userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0',
          language: 'en',
          referrer: null,
        },
        location: { url: `https://d.example/p${i % 13}`, siteSection: null, siteSpace: null, siteShareKey: null, space: null, revision: null, page: null },
      });
      // Each round crosses SEAL_EVENTS within one group commit; FANOUT rounds compact.
      const per = Math.ceil(SEAL_EVENTS / 4);
      for (let round = 0; round < FANOUT + 1; round++) {
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, k) => s.api('POST', E, { body: { events: Array.from({ length: per }, (_, i) => ev(round * 8 * per + k * per + i)) } })),
        );
        expect(answers.map((a) => a.status)).toEqual(Array(8).fill(204));
      }
      const total = (FANOUT + 1) * 8 * per;
      const agg = await s.api('POST', `${E}/aggregate`, {
        body: { range: 'last24Hours', select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }] },
      });
      expect(agg.body.columns.map((c: any) => c.values[0])).toEqual([total, 40, 90]);
    } finally {
      await s.stop();
    }
  });
});
