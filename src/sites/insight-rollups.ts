import { newId } from '../kernel/ids.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import type { InsightBatchRecord, InsightRollupRecord, SiteRecord } from './model.js';
import { SiteInsightRollups } from './tables.js';

// The rollups of a site's insights (docs/manual/insights.md#rollups): what an aggregation needs of
// its events, counted ahead, so that aggregateSiteEvents sums a few thousand counts instead of
// decoding every event. A rollup counts a set of batches:
//   total    events per (hour, type)
//   cells    per stored field an aggregation groups or filters by: events per (hour, type, value)
//            (one field at a time: the marginals, not their cross product)
//   visitors and sessions: the distinct ids per (hour, type) and per (day, type)
// Every batch is counted by exactly one rollup, written in the same write (so in the same
// commit) as the batch: the `open` rollup takes each new batch; once it counts SEAL_EVENTS it is
// sealed (level 1), and FANOUT sealed rollups of one level are merged into one of the next, so a
// site has O(log n) rollups and each event is re-counted O(log n) times. Each rollup is a shard of
// its own (`insightrollups/<site>/<id>`): a sealed rollup is written once, never rewritten
// until merged. What the rollups cannot answer (two fields at once, distinct counts by a field,
// ratings, a range that cuts an hour in a rollup) is answered from the batches (insights-query.ts).

export type { InsightRollupRecord };

/** Sealed once it counts this many events (the open rollup is rewritten by each batch: kept small). */
export const SEAL_EVENTS = 2000;
/** This many sealed rollups of one level are merged into one of the next level. */
export const FANOUT = 8;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;
/** Keys pack a time bucket and an event type: bucket * TYPES + type (EVENT_TYPES has fewer). */
export const TYPES = 64;

/**
 * The stored fields a rollup counts by (those an aggregation column reads, insights-query.ts
 * `dimension`). `page` is counted by page and space together (its answer is both).
 */
export const ROLLUP_FIELDS = [
  'url',
  'section',
  'siteSpace',
  'shareKey',
  'display',
  'page',
  'claims',
  'device',
  'browser',
  'os',
  'bot',
  'language',
  'linkTarget',
  'linkPosition',
  'apiPath',
  'apiMethod',
  'query',
  'rating',
  'comment',
  'askRating',
  'referrer',
  'adDomain',
  'adPlacement',
  'trademark',
] as const;
export type RollupField = (typeof ROLLUP_FIELDS)[number];

/** The stored value a rollup keeps for `page`: page and space (a page id names a page of a space). */
export const pageValue = (page: string, space: string | undefined) => JSON.stringify([page, space ?? '']);

/** A rollup being built or merged: maps, encoded to flat arrays by `toRecord`. */
export class RollupBuilder {
  readonly dict: string[] = [];
  private readonly at = new Map<string, number>();
  readonly batches: string[] = [];
  events = 0;
  t0 = Number.POSITIVE_INFINITY;
  t1 = Number.NEGATIVE_INFINITY;
  /** hour*TYPES+type -> events */
  readonly total = new Map<number, number>();
  /** field -> hour*TYPES+type -> value (dict index, -1 none) -> events; a field absent here has no value in any event. */
  readonly cells = new Map<RollupField, Map<number, Map<number, number>>>();
  /** (hour|day)*TYPES+type -> dict indexes */
  readonly sets = {
    vh: new Map<number, Set<number>>(),
    vd: new Map<number, Set<number>>(),
    sh: new Map<number, Set<number>>(),
    sd: new Map<number, Set<number>>(),
  };

  intern(s: string): number {
    let i = this.at.get(s);
    if (i === undefined) {
      i = this.dict.length;
      this.dict.push(s);
      this.at.set(s, i);
    }
    return i;
  }

  private cellsOf(f: RollupField): Map<number, Map<number, number>> {
    let m = this.cells.get(f);
    if (!m) {
      // Until now every event had no value of this field: their cells are the totals, at -1.
      m = new Map();
      for (const [ht, n] of this.total) m.set(ht, new Map([[-1, n]]));
      this.cells.set(f, m);
    }
    return m;
  }

  private addCell(f: RollupField, ht: number, v: number, n: number) {
    const m = this.cellsOf(f);
    let byValue = m.get(ht);
    if (!byValue) m.set(ht, (byValue = new Map()));
    byValue.set(v, (byValue.get(v) ?? 0) + n);
  }

  private addTo(which: keyof RollupBuilder['sets'], key: number, v: number) {
    const m = this.sets[which];
    let s = m.get(key);
    if (!s) m.set(key, (s = new Set()));
    s.add(v);
  }

  /** Adds a batch's events. */
  addBatch(b: InsightBatchRecord): this {
    const n = b.dt.length;
    this.batches.push(b.id);
    if (!n) return this;
    // The batch's dictionary indexes as this rollup's, made when first met.
    const local = new Int32Array(b.dict.length).fill(-1);
    const mine = (at: number) => (at < 0 ? -1 : local[at]! >= 0 ? local[at]! : (local[at] = this.intern(b.dict[at]!)));
    const present = ROLLUP_FIELDS.filter((f) => b.cols[f]);
    for (const f of present) this.cellsOf(f); // made from the totals before this batch's events
    const absent = ROLLUP_FIELDS.filter((f) => !b.cols[f] && this.cells.has(f));
    const pages = new Map<string, number>();
    const pageOf = (i: number) => {
      const p = b.cols.page![i]!;
      if (p < 0) return -1;
      const s = b.cols.space?.[i] ?? -1;
      const key = `${p},${s}`;
      let v = pages.get(key);
      if (v === undefined) pages.set(key, (v = this.intern(pageValue(b.dict[p]!, s < 0 ? undefined : b.dict[s]))));
      return v;
    };
    const visitors = b.cols.visitor;
    const sessions = b.cols.session;
    for (let i = 0; i < n; i++) {
      const t = b.t0 + b.dt[i]!;
      if (t < this.t0) this.t0 = t;
      if (t > this.t1) this.t1 = t;
      const type = b.type[i]!;
      const ht = Math.floor(t / HOUR) * TYPES + type;
      const dt = Math.floor(t / DAY) * TYPES + type;
      this.total.set(ht, (this.total.get(ht) ?? 0) + 1);
      for (const f of present) this.addCell(f, ht, f === 'page' ? pageOf(i) : mine(b.cols[f]![i]!), 1);
      for (const f of absent) this.addCell(f, ht, -1, 1);
      const v = visitors ? visitors[i]! : -1;
      if (v >= 0) {
        this.addTo('vh', ht, mine(v));
        this.addTo('vd', dt, mine(v));
      }
      const s = sessions ? sessions[i]! : -1;
      if (s >= 0) {
        this.addTo('sh', ht, mine(s));
        this.addTo('sd', dt, mine(s));
      }
    }
    this.events += n;
    return this;
  }

  /** Adds what another rollup counts (its batches, counts and ids). */
  addRollup(r: InsightRollupRecord): this {
    const local = r.dict.map((s) => this.intern(s));
    const mine = (at: number) => (at < 0 ? -1 : local[at]!);
    for (const id of r.batches) this.batches.push(id);
    if (!r.events) return this;
    this.t0 = Math.min(this.t0, r.t0);
    this.t1 = Math.max(this.t1, r.t1);
    // Fields only one side has: the other side's events have no value of it (-1).
    for (const f of ROLLUP_FIELDS) {
      if (r.cells[f]) {
        const c = r.cells[f]!;
        for (let k = 0; k < c.length; k += 3) this.addCell(f, c[k]!, mine(c[k + 1]!), c[k + 2]!);
      } else if (this.cells.has(f)) for (let k = 0; k < r.total.length; k += 2) this.addCell(f, r.total[k]!, -1, r.total[k + 1]!);
    }
    for (let k = 0; k < r.total.length; k += 2) this.total.set(r.total[k]!, (this.total.get(r.total[k]!) ?? 0) + r.total[k + 1]!);
    for (const which of ['vh', 'vd', 'sh', 'sd'] as const) {
      const runs = r[which];
      for (let k = 0; k < runs.length; k += 2 + runs[k + 1]!) {
        for (let j = 0; j < runs[k + 1]!; j++) this.addTo(which, runs[k]!, mine(runs[k + 2 + j]!));
      }
    }
    this.events += r.events;
    return this;
  }

  toRecord(id: string, site: SiteRecord, level: number): InsightRollupRecord {
    const flat2 = (m: Map<number, number>) => [...m].flat();
    const cells: Partial<Record<RollupField, number[]>> = {};
    for (const [f, m] of this.cells) {
      const out: number[] = [];
      for (const [ht, byValue] of m) for (const [v, n] of byValue) out.push(ht, v, n);
      cells[f] = out;
    }
    const runs = (m: Map<number, Set<number>>) => {
      const out: number[] = [];
      for (const [key, s] of m) {
        out.push(key, s.size);
        for (const v of s) out.push(v);
      }
      return out;
    };
    return {
      id,
      site: site.id,
      organization: site.organization,
      level,
      batches: this.batches,
      events: this.events,
      t0: this.events ? this.t0 : 0,
      t1: this.events ? this.t1 : 0,
      dict: this.dict,
      total: flat2(this.total),
      cells,
      vh: runs(this.sets.vh),
      vd: runs(this.sets.vd),
      sh: runs(this.sets.sh),
      sd: runs(this.sets.sd),
    };
  }
}

/** The rollup of these batches (tests, and a site whose batches predate rollups). */
export function rollupOf(batches: readonly InsightBatchRecord[], site: SiteRecord, id: string, level: number): InsightRollupRecord {
  const b = new RollupBuilder();
  for (const x of batches) b.addBatch(x);
  return b.toRecord(id, site, level);
}

// From src/kernel/ids.ts, so that a write run again (a shard it reached was not loaded) makes the
// same ids: a new rollup is a new shard, and a new id on every run would reach a new one each time.
const rollupId = (site: string) => `${site}:${newId(16)}`;
/** The id of a site's open rollup (the one new batches are added to). */
export const openRollupId = (site: string) => `${site}:open`;

/** Every rollup of a site. */
export const rollupsOf = (tx: ReadTx, siteId: string) => tx.find(SiteInsightRollups, 'site', siteId);

/** The level of a rollup counting `events` events made at once (a site's batches from before rollups). */
const levelFor = (events: number) => 1 + Math.max(0, Math.floor(Math.log(Math.max(1, events / SEAL_EVENTS)) / Math.log(FANOUT)));

/**
 * Counts a new batch in the site's rollups, in the write that stores it. `before`: the site's
 * batches stored before it, asked only when the site has no rollup yet (its events predate
 * rollups: they are counted now, so that rollups count every batch or none).
 */
export function rollUp(tx: WriteTx, site: SiteRecord, batch: InsightBatchRecord, before: () => readonly InsightBatchRecord[]): void {
  const openId = openRollupId(site.id);
  const open = tx.get(SiteInsightRollups, openId);
  if (!open && rollupsOf(tx, site.id).length === 0) {
    const old = before().filter((b) => b.id !== batch.id);
    if (old.length) {
      const r = rollupOf(old, site, rollupId(site.id), 0);
      tx.put(SiteInsightRollups, { ...r, level: levelFor(r.events) });
    }
  }
  const b = new RollupBuilder();
  if (open) b.addRollup(open);
  b.addBatch(batch);
  if (b.events < SEAL_EVENTS) {
    tx.put(SiteInsightRollups, b.toRecord(openId, site, 0));
    return;
  }
  if (open) tx.delete(SiteInsightRollups, openId);
  tx.put(SiteInsightRollups, b.toRecord(rollupId(site.id), site, 1));
  compact(tx, site);
}

/** Merges FANOUT sealed rollups of one level into one of the next, level after level. */
export function compact(tx: WriteTx, site: SiteRecord): void {
  for (let level = 1; ; level++) {
    const same = rollupsOf(tx, site.id).filter((r) => r.level === level && r.id !== openRollupId(site.id));
    if (same.length < FANOUT) return;
    const b = new RollupBuilder();
    for (const r of same.sort((x, y) => x.t0 - y.t0)) {
      b.addRollup(r);
      tx.delete(SiteInsightRollups, r.id);
    }
    tx.put(SiteInsightRollups, b.toRecord(rollupId(site.id), site, level + 1));
  }
}

/** Removes a site's rollups (its events are removed). */
export function deleteRollupsOf(tx: WriteTx, siteId: string): number {
  const all = rollupsOf(tx, siteId);
  for (const r of all) tx.delete(SiteInsightRollups, r.id);
  return all.length;
}
