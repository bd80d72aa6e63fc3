import { EVENT_TYPES } from './insights.js';
import { bucketStart, type ColumnRef, type Dimension, type Group, newGroup, type Plan } from './insights-query.js';
import { DAY, HOUR, type InsightRollupRecord, ROLLUP_FIELDS, type RollupField, TYPES } from './insight-rollups.js';

// An aggregation counted from a site's rollups (src/sites/insight-rollups.ts) instead of its
// events: the same groups `collectRaw` counts, from the counts per (hour, type, value). Undefined
// when the rollups cannot say (the caller then decodes the events):
//   - two stored fields at once (grouped or filtered): rollups count one field at a time;
//   - visitors or sessions of groups of a field: ids are kept per hour and day, not per value;
//   - ratings (pageFeedbackRating, askResponseRating), a filter on datetime;
//   - a range that cuts an hour some rollup has events in, on either side of its bound
//     (presets start on the hour, see rangeOf, so only from/to ranges off the hour do).
// test/sites/insights-rollups.test.ts checks both ways give the same answer.

const FIELDS = new Set<string>(ROLLUP_FIELDS);
type Interval = 'hour' | 'day' | 'week' | 'month';

/** The value of a column for a rollup's stored string (null: the event has none), as valueIn answers it. */
function answerValue(d: Dimension, c: ColumnRef, s: string | null): unknown {
  if (c.column === 'page') {
    if (s === null) return null;
    const [page, space] = JSON.parse(s) as [string, string];
    return { page, space };
  }
  if (s === null) return d.absent;
  return d.out ? d.out(s) : s;
}

export function collectRollups(rollups: readonly InsightRollupRecord[], plan: Plan): Map<unknown, Group> | undefined {
  const { from, to, groupCols, dims, before, after, q, select } = plan;
  const metrics = [...select.map((c) => c.column), ...after.map((f) => f.ref.column), ...(q.order ? [q.order.by.column] : [])];
  if (metrics.includes('pageFeedbackRating') || metrics.includes('askResponseRating')) return undefined;
  const fields = new Set<string>();
  for (const d of [...dims, ...before.map((f) => f.dim)]) if (d.field !== 'time' && d.field !== 'type') fields.add(d.field);
  if (before.some((f) => f.ref.column === 'datetime')) return undefined;
  if (fields.size > 1 || [...fields].some((f) => !FIELDS.has(f))) return undefined;
  const field = [...fields][0] as RollupField | undefined;
  const distinct = { visitors: metrics.includes('visitorsCount'), sessions: metrics.includes('sessionsCount') };
  if (field && (distinct.visitors || distinct.sessions)) return undefined;

  // Each hour of each rollup: wholly in the range, wholly out, or cut by it (then undefined).
  const states: Map<number, boolean>[] = [];
  for (const r of rollups) {
    const state = new Map<number, boolean>();
    for (let k = 0; k < r.total.length; k += 2) {
      const h = Math.floor(r.total[k]! / TYPES) * HOUR;
      if (state.has(h)) continue;
      const lo = Math.max(h, r.t0);
      const hi = Math.min(h + HOUR - 1, r.t1);
      if (lo >= from && hi <= to) state.set(h, true);
      else if (hi < from || lo > to) state.set(h, false);
      else return undefined;
    }
    states.push(state);
  }

  const groups = new Map<unknown, Group>();
  const single = dims.length === 1 && !dims[0]!.many;
  const interval = (c: ColumnRef): Interval => c.interval ?? 'day';
  // Ids of visitors and sessions across rollups (each rollup numbers its own strings).
  const ids = new Map<string, number>();

  rollups.forEach((r, ri) => {
    const state = states[ri]!;
    // Per dictionary index: the column values and filter results (computed once a rollup).
    const caches = groupCols.map(() => new Map<number, unknown>());
    const whereCaches = before.map(() => new Map<number, boolean>());
    const fieldValue = (d: Dimension, c: ColumnRef, v: number, cache: Map<number, unknown>) => {
      let x = cache.get(v);
      if (x === undefined && !cache.has(v)) cache.set(v, (x = answerValue(d, c, v < 0 ? null : r.dict[v]!)));
      return x;
    };
    /** The groups an event of this time (ms, start of its bucket), type and value belongs to ([] : none). */
    const groupsOf = (t: number, type: number, v: number): Group[] => {
      for (let w = 0; w < before.length; w++) {
        const f = before[w]!;
        const cache = whereCaches[w]!;
        let pass = f.dim.field === 'type' ? undefined : cache.get(v);
        if (pass === undefined) {
          if (f.dim.field === 'type') pass = f.test(EVENT_TYPES[type]);
          else if (f.dim.many) {
            const vals = v < 0 ? [] : f.dim.many(r.dict[v]!);
            pass = f.ref.operator === 'notIn' ? vals.every((x) => f.test(x)) : vals.some((x) => f.test(x));
          } else {
            const x = answerValue(f.dim, f.ref, v < 0 ? null : r.dict[v]!);
            pass = x !== undefined && f.test(x);
          }
          if (f.dim.field !== 'type') cache.set(v, pass);
        }
        if (!pass) return [];
      }
      const valueAt = (k: number) => {
        const d = dims[k]!;
        if (d.field === 'time') return bucketStart(t, interval(groupCols[k]!));
        if (d.field === 'type') return EVENT_TYPES[type];
        return fieldValue(d, groupCols[k]!, v, caches[k]!);
      };
      if (single) {
        const x = valueAt(0);
        if (x === undefined) return [];
        const id = x !== null && typeof x === 'object' ? JSON.stringify(x) : x;
        let g = groups.get(id);
        if (!g) groups.set(id, (g = newGroup([x])));
        return [g];
      }
      let keys: unknown[][] = [[]];
      for (let k = 0; k < dims.length; k++) {
        const d = dims[k]!;
        if (d.many) {
          const vals = v < 0 ? [] : d.many(r.dict[v]!);
          if (!vals.length) return [];
          keys = keys.flatMap((key) => vals.map((x) => [...key, x]));
          continue;
        }
        const x = valueAt(k);
        if (x === undefined) return [];
        for (const key of keys) key.push(x);
      }
      return keys.map((key) => {
        const id = key.length === 0 ? '' : key.length === 1 && typeof key[0] !== 'object' ? String(key[0]) : JSON.stringify(key);
        let g = groups.get(id);
        if (!g) groups.set(id, (g = newGroup(key)));
        return g;
      });
    };

    // Events: the field's cells, or the totals when no field is asked (or no event has it: -1).
    const cells = field ? r.cells[field] : undefined;
    if (cells) {
      for (let k = 0; k < cells.length; k += 3) {
        const h = Math.floor(cells[k]! / TYPES) * HOUR;
        if (!state.get(h)) continue;
        for (const g of groupsOf(h, cells[k]! % TYPES, cells[k + 1]!)) g.events += cells[k + 2]!;
      }
    } else {
      for (let k = 0; k < r.total.length; k += 2) {
        const h = Math.floor(r.total[k]! / TYPES) * HOUR;
        if (!state.get(h)) continue;
        for (const g of groupsOf(h, r.total[k]! % TYPES, -1)) g.events += r.total[k + 1]!;
      }
    }

    // Distinct visitors and sessions (no field asked): by day when every hour of the day is in
    // the range and no group is finer than a day, else by hour.
    if (!distinct.visitors && !distinct.sessions) return;
    const byHour = groupCols.some((c) => c.column === 'datetime' && interval(c) === 'hour');
    const wholeDays = new Map<number, boolean>();
    for (const [h, inRange] of state) {
      const d = Math.floor(h / DAY);
      wholeDays.set(d, (wholeDays.get(d) ?? true) && inRange);
    }
    const local = new Int32Array(r.dict.length).fill(-1);
    const idOf = (prefix: string, at: number) => {
      if (local[at]! >= 0) return local[at]!;
      const s = prefix + r.dict[at]!;
      let i = ids.get(s);
      if (i === undefined) ids.set(s, (i = ids.size));
      return (local[at] = i);
    };
    const add = (runs: number[], unit: number, pick: (g: Group) => Set<number>, prefix: string, use: (bucket: number) => boolean) => {
      for (let k = 0; k < runs.length; k += 2 + runs[k + 1]!) {
        const bucket = Math.floor(runs[k]! / TYPES);
        if (!use(bucket)) continue;
        const gs = groupsOf(bucket * unit, runs[k]! % TYPES, -1);
        if (!gs.length) continue;
        const n = runs[k + 1]!;
        for (const g of gs) {
          const set = pick(g);
          for (let j = 0; j < n; j++) set.add(idOf(prefix, runs[k + 2 + j]!));
        }
      }
    };
    const hourUse = byHour
      ? (h: number) => state.get(h * HOUR) === true
      : (h: number) => state.get(h * HOUR) === true && !wholeDays.get(Math.floor((h * HOUR) / DAY));
    const dayUse = (d: number) => !byHour && wholeDays.get(d) === true;
    if (distinct.visitors) {
      add(r.vh, HOUR, (g) => g.visitors, 'v:', hourUse);
      add(r.vd, DAY, (g) => g.visitors, 'v:', dayUse);
    }
    if (distinct.sessions) {
      local.fill(-1);
      add(r.sh, HOUR, (g) => g.sessions, 's:', hourUse);
      add(r.sd, DAY, (g) => g.sessions, 's:', dayUse);
    }
  });
  return groups;
}
