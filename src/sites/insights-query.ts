import { invalid } from '../kernel/errors.js';
import { EVENT_TYPES, type Field, type InsightBatchRecord } from './insights.js';

// The aggregation of a site's events (aggregateSiteEvents; docs/manual/insights.md#aggregation):
//   range    the events counted (a preset back from now, or from/to)
//   where    filters; on a dimension before grouping, on a count (eventsCount, ...) after it
//   groupBy  the dimensions a row is one value of; a dimension selected but not grouped by is
//            grouped by too (a row has one value of each column it shows)
//   select   the columns answered, in that order (default: the groupBy columns, then eventsCount)
//   order    by one column, asc or desc (default: datetime ascending when grouped by time, else
//            eventsCount descending); ties by the grouped values, so an answer is deterministic
//   limit    rows answered (1..1000, default 1000)
// The answer is column by column: `columns[k].values[r]` is row r's value of column k.

type Interval = 'hour' | 'day' | 'week' | 'month';
export interface ColumnRef {
  column: string;
  interval?: Interval;
  claim?: string;
  precision?: number;
}

export const METRICS = new Set(['eventsCount', 'sessionsCount', 'visitorsCount', 'pageFeedbackRating', 'askResponseRating']);
const LINK_KINDS = new Set(['url', 'page', 'file', 'anchor', 'space', 'collection', 'user', 'reusable-content']);

const hostOf = (u: string): string | null => {
  try {
    return new URL(u).hostname || null;
  } catch {
    return null;
  }
};
const param = (name: string) => (u: string) => {
  try {
    return new URL(u).searchParams.get(name) ?? '';
  } catch {
    return '';
  }
};
const parse = (s: string) => JSON.parse(s);

/**
 * A dimension: the stored field it reads and how a stored string becomes its answer value.
 * `absent`: the value of an event without the field (undefined: such an event has no value of
 * this column and is left out of a grouping by it, since the contract's values allow none).
 */
export interface Dimension {
  field: Field | 'type' | 'time';
  out?: (s: string) => unknown;
  absent?: unknown;
  /** One value per element (a visitor's claim properties). */
  many?: (s: string) => string[];
}

export function dimension(c: ColumnRef): Dimension | undefined {
  switch (c.column) {
    case 'datetime':
      return { field: 'time' };
    case 'eventType':
      return { field: 'type' };
    case 'url':
      return { field: 'url' };
    case 'siteSection':
      return { field: 'section', absent: null };
    case 'siteSpace':
      return { field: 'siteSpace', absent: null };
    case 'siteShareKey':
      return { field: 'shareKey', absent: null };
    case 'displayContext':
      return { field: 'display', absent: 'site' };
    case 'page':
      // Stored as the page id; the space is taken from the event too (see keyOf).
      return { field: 'page', absent: null };
    case 'visitorGeoCountry':
    case 'visitorGeoPoint':
      // No geolocation database on this machine: every event has no location (docs/manual/insights.md#what-is-not-recorded).
      return { field: 'claims', out: () => null, absent: null };
    case 'visitorDevice':
      return { field: 'device', absent: 'unknown' };
    case 'visitorBrowser':
      return { field: 'browser', absent: 'unknown' };
    case 'visitorOS':
      return { field: 'os', absent: 'unknown' };
    case 'visitorBot':
      return { field: 'bot', absent: null };
    case 'visitorLanguage':
      return { field: 'language', absent: null };
    case 'eventLinkTargetValue':
      return { field: 'linkTarget', out: parse };
    case 'eventLinkTargetKind':
      return { field: 'linkTarget', out: (s) => (LINK_KINDS.has(parse(s).kind) ? parse(s).kind : undefined) };
    case 'eventLinkTargetDomain':
      return { field: 'linkTarget', out: (s) => (parse(s).kind === 'url' ? hostOf(parse(s).url) : null) };
    case 'eventLinkPosition':
      return { field: 'linkPosition' };
    case 'eventAPIOperationPath':
      return { field: 'apiPath' };
    case 'eventAPIOperationMethod':
      return { field: 'apiMethod' };
    case 'eventSearchQuery':
      return { field: 'query' };
    case 'eventPageFeedbackRating':
      return { field: 'rating' };
    case 'eventPageFeedbackComment':
      return { field: 'comment' };
    case 'eventAskResponseRating':
      return { field: 'askRating', out: Number };
    case 'referrer':
      return { field: 'referrer', absent: '' };
    case 'referrerDomain':
      return { field: 'referrer', out: (s) => hostOf(s) ?? '', absent: '' };
    case 'utmSource':
    case 'utmMedium':
    case 'utmCampaign':
    case 'utmTerm':
    case 'utmContent':
      return { field: 'url', out: param(`utm_${c.column.slice(3).toLowerCase()}`), absent: '' };
    case 'visitorClaimProperty':
      return { field: 'claims', many: (s) => Object.keys(parse(s)) };
    case 'visitorClaim': {
      const claim = String(c.claim);
      return {
        field: 'claims',
        out: (s) => {
          const v = parse(s)[claim];
          return v === undefined || v === null ? undefined : typeof v === 'string' ? v : JSON.stringify(v);
        },
      };
    }
    case 'eventAdDomain':
      return { field: 'adDomain' };
    case 'eventAdPlacement':
      return { field: 'adPlacement' };
    case 'eventTrademarkPlacement':
      return { field: 'trademark' };
  }
  return undefined;
}

const DAY = 86_400_000;
/** The start of the interval `t` falls in (UTC; weeks start on Monday). */
export function bucketStart(t: number, interval: Interval): number {
  const d = new Date(t);
  switch (interval) {
    case 'hour':
      return Math.floor(t / 3_600_000) * 3_600_000;
    case 'day':
      return Math.floor(t / DAY) * DAY;
    case 'week': {
      const day = Math.floor(t / DAY) * DAY;
      return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY;
    }
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
}

/**
 * The range [from, to] in ms, from a preset back from `now` or from/to. A preset starts on the
 * hour (last24Hours at 14:20 counts from 14:00 yesterday): a chart of the last days loses nothing,
 * and the rollups (insight-rollups.ts), counted per hour, answer it without decoding an event.
 */
export function rangeOf(range: unknown, now: number): [number, number] {
  if (typeof range === 'string') {
    const d = new Date(now);
    const hour = (t: number) => Math.floor(t / 3_600_000) * 3_600_000;
    switch (range) {
      case 'last24Hours':
        return [hour(now - DAY), now];
      case 'last7Days':
        return [hour(now - 7 * DAY), now];
      case 'last30Days':
        return [hour(now - 30 * DAY), now];
      case 'last3Months':
        return [hour(d.setUTCMonth(d.getUTCMonth() - 3)), now];
      case 'lastYear':
        return [hour(d.setUTCFullYear(d.getUTCFullYear() - 1)), now];
    }
    throw invalid(`range: unknown preset ${JSON.stringify(range)}`);
  }
  const r = range as { from: string; to: string };
  const from = Date.parse(r.from);
  const to = Date.parse(r.to);
  if (Number.isNaN(from)) throw invalid(`range.from: not a date-time: ${JSON.stringify(r.from)}`);
  if (Number.isNaN(to)) throw invalid(`range.to: not a date-time: ${JSON.stringify(r.to)}`);
  if (from > to) throw invalid(`range: from (${r.from}) is after to (${r.to})`);
  return [from, to];
}

export interface AggregationQuery {
  select?: ColumnRef[];
  where?: (ColumnRef & { values: unknown[]; operator?: string })[];
  groupBy?: ColumnRef[];
  order?: { by: ColumnRef; direction: 'asc' | 'desc' };
  range: unknown;
  limit?: number;
}

const keyOfRef = (c: ColumnRef) =>
  c.column === 'datetime' ? `datetime:${c.interval ?? 'day'}` : c.column === 'visitorClaim' ? `visitorClaim:${c.claim}` : c.column;

/** A value of the answer, comparable with another of the same column. */
function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'object' || typeof b === 'object') {
    const x = JSON.stringify(a);
    const y = JSON.stringify(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const OPS: Record<string, (v: unknown, values: unknown[]) => boolean> = {
  in: (v, values) => values.some((x) => compare(v, x) === 0 || (x !== null && typeof x === 'object' && JSON.stringify(x) === JSON.stringify(v))),
  notIn: (v, values) => !OPS.in!(v, values),
  greaterThan: (v, values) => values.length > 0 && compare(v, values[0]) > 0,
  greaterThanOrEqual: (v, values) => values.length > 0 && compare(v, values[0]) >= 0,
  lessThan: (v, values) => values.length > 0 && compare(v, values[0]) < 0,
  lessThanOrEqual: (v, values) => values.length > 0 && compare(v, values[0]) <= 0,
};

export interface Group {
  key: unknown[];
  events: number;
  sessions: Set<number>;
  visitors: Set<number>;
  feedback: { ok: number; good: number; bad: number };
  ask: { positive: number; negative: number };
}

/** A where filter's values in the stored form: timestamps as ms for datetime. */
function filterValues(c: ColumnRef & { values: unknown[] }): unknown[] {
  if (c.column !== 'datetime') return c.values;
  return c.values.map((v, i) => {
    const t = Date.parse(String(v));
    if (Number.isNaN(t)) throw invalid(`where: datetime value ${i} is not a date-time: ${JSON.stringify(v)}`);
    return t;
  });
}

/** A checked query (a 400 names what is wrong), ready to be counted from batches or rollups. */
export interface Plan {
  q: AggregationQuery;
  from: number;
  to: number;
  limit: number;
  groupCols: ColumnRef[];
  select: ColumnRef[];
  dims: Dimension[];
  before: { dim: Dimension; ref: ColumnRef & { operator?: string }; test: (v: unknown) => boolean }[];
  after: { ref: ColumnRef; test: (v: unknown) => boolean }[];
  seen: Set<string>;
}

export function planOf(q: AggregationQuery, now: number): Plan {
  const [from, to] = rangeOf(q.range, now);
  const limit = q.limit ?? 1000;
  const groupCols: ColumnRef[] = [];
  const seen = new Set<string>();
  const addGroup = (c: ColumnRef, where: string) => {
    if (METRICS.has(c.column)) throw invalid(`${where}: ${c.column} is a count, not a column to group by`);
    if (!dimension(c)) throw invalid(`${where}: unknown column ${JSON.stringify(c.column)}`);
    if (!seen.has(keyOfRef(c))) {
      seen.add(keyOfRef(c));
      groupCols.push(c);
    }
  };
  (q.groupBy ?? []).forEach((c, i) => addGroup(c, `groupBy[${i}]`));
  (q.select ?? []).forEach((c, i) => {
    if (!METRICS.has(c.column)) addGroup(c, `select[${i}]`);
  });
  const select = q.select?.length ? q.select : [...groupCols, { column: 'eventsCount' }];
  const dims = groupCols.map(dimension) as Dimension[];

  // Filters on dimensions apply to events, on counts to groups.
  const before: Plan['before'] = [];
  const after: Plan['after'] = [];
  (q.where ?? []).forEach((w, i) => {
    const op = OPS[w.operator ?? 'in'];
    if (!op) throw invalid(`where[${i}].operator: unknown operator ${JSON.stringify(w.operator)}`);
    const values = filterValues(w);
    if (METRICS.has(w.column)) {
      if (w.column === 'pageFeedbackRating' || w.column === 'askResponseRating') throw invalid(`where[${i}].column: ${w.column} cannot be filtered on`);
      after.push({ ref: w, test: (v) => op(v, values) });
      return;
    }
    const dim = dimension(w);
    if (!dim) throw invalid(`where[${i}].column: unknown column ${JSON.stringify(w.column)}`);
    before.push({ dim, ref: w, test: (v) => op(v, values) });
  });
  if (q.order && !METRICS.has(q.order.by.column) && !seen.has(keyOfRef(q.order.by)))
    throw invalid(`order.by: ${q.order.by.column} is neither a count nor a column grouped by or selected`);

  return { q, from, to, limit, groupCols, select, dims, before, after, seen };
}

/** Aggregates a site's batches; the answer is SiteInsightsQueryEventsAggregationResult. */
export function aggregate(batches: readonly InsightBatchRecord[], q: AggregationQuery, now: number): { columns: Record<string, unknown>[] } {
  const plan = planOf(q, now);
  return answer(plan, collectRaw(batches, plan));
}

/** A new group of `key`. */
export const newGroup = (key: unknown[]): Group => ({
  key,
  events: 0,
  sessions: new Set(),
  visitors: new Set(),
  feedback: { ok: 0, good: 0, bad: 0 },
  ask: { positive: 0, negative: 0 },
});

/** The groups of the events of `batches` (every event decoded). */
export function collectRaw(batches: readonly InsightBatchRecord[], plan: Plan): Map<unknown, Group> {
  const { from, to, groupCols, dims, before } = plan;
  // Values are numbered across batches (ids), so a group key is a few integers.
  const ids = new Map<string, number>();
  const idOf = (s: string) => {
    let i = ids.get(s);
    if (i === undefined) {
      i = ids.size;
      ids.set(s, i);
    }
    return i;
  };
  const groups = new Map<unknown, Group>();
  const single = dims.length === 1 && !dims[0]!.many;
  const interval = (c: ColumnRef): Interval => c.interval ?? 'day';

  /** A dimension's answer value for event i of a batch (undefined: it has none). */
  const valueIn = (b: InsightBatchRecord, d: Dimension, c: ColumnRef, i: number, cache: Map<string, unknown>[], k: number): unknown => {
    if (d.field === 'time') return bucketStart(b.t0 + b.dt[i]!, interval(c));
    if (d.field === 'type') return EVENT_TYPES[b.type[i]!];
    const col = b.cols[d.field];
    const at = col ? col[i]! : -1;
    if (c.column === 'page') {
      if (at < 0) return null;
      const sp = b.cols.space?.[i] ?? -1;
      return { page: b.dict[at], space: sp < 0 ? '' : b.dict[sp] };
    }
    if (at < 0) return d.absent;
    const raw = b.dict[at]!;
    if (!d.out) return raw;
    const c2 = cache[k]!;
    if (!c2.has(raw)) c2.set(raw, d.out(raw));
    return c2.get(raw);
  };

  for (const b of batches) {
    const n = b.dt.length;
    if (b.t0 > to || n === 0) continue;
    const sessions = b.cols.session;
    const visitors = b.cols.visitor;
    // Global ids of the batch's visitors and sessions, made when first met (a dictionary holds every column's strings).
    const sessionIds = new Int32Array(b.dict.length).fill(-1);
    const visitorIds = new Int32Array(b.dict.length).fill(-1);
    const sessionOf = (at: number) => (sessionIds[at]! >= 0 ? sessionIds[at]! : (sessionIds[at] = idOf(`s:${b.dict[at]}`)));
    const visitorOf = (at: number) => (visitorIds[at]! >= 0 ? visitorIds[at]! : (visitorIds[at] = idOf(`v:${b.dict[at]}`)));
    const caches = groupCols.map(() => new Map<string, unknown>());
    const whereCaches = before.map(() => new Map<string, unknown>());
    const rating = b.cols.rating;
    const askRating = b.cols.askRating;
    const count = (g: Group, i: number) => {
      g.events++;
      if (sessions && sessions[i]! >= 0) g.sessions.add(sessionOf(sessions[i]!));
      if (visitors && visitors[i]! >= 0) g.visitors.add(visitorOf(visitors[i]!));
      if (rating && rating[i]! >= 0) {
        const r = b.dict[rating[i]!] as 'ok' | 'good' | 'bad';
        if (r in g.feedback) g.feedback[r]++;
      }
      if (askRating && askRating[i]! >= 0) {
        if (b.dict[askRating[i]!] === '1') g.ask.positive++;
        else g.ask.negative++;
      }
    };
    events: for (let i = 0; i < n; i++) {
      const t = b.t0 + b.dt[i]!;
      if (t < from || t > to) continue;
      for (let w = 0; w < before.length; w++) {
        const f = before[w]!;
        if (f.dim.many) {
          const at = b.cols[f.dim.field as Field]?.[i] ?? -1;
          const vals = at < 0 ? [] : f.dim.many(b.dict[at]!);
          const pass = f.ref.operator === 'notIn' ? vals.every((v) => f.test(v)) : vals.some((v) => f.test(v));
          if (!pass) continue events;
          continue;
        }
        const v = f.ref.column === 'datetime' ? t : valueIn(b, f.dim, f.ref, i, whereCaches, w);
        if (v === undefined || !f.test(v)) continue events;
      }
      // One grouped column of one value (the usual question): the value is the key, no arrays made.
      if (single) {
        const v = valueIn(b, dims[0]!, groupCols[0]!, i, caches, 0);
        if (v === undefined) continue;
        const id = v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
        let g = groups.get(id);
        if (!g) {
          g = newGroup([v]);
          groups.set(id, g);
        }
        count(g, i);
        continue;
      }
      // The event's key: one value per grouped column (several rows for a many-valued one).
      let keys: unknown[][] = [[]];
      for (let k = 0; k < dims.length; k++) {
        const d = dims[k]!;
        if (d.many) {
          const at = b.cols[d.field as Field]?.[i] ?? -1;
          const vals = at < 0 ? [] : d.many(b.dict[at]!);
          if (!vals.length) continue events;
          keys = keys.flatMap((key) => vals.map((v) => [...key, v]));
          continue;
        }
        const v = valueIn(b, d, groupCols[k]!, i, caches, k);
        if (v === undefined) continue events;
        for (const key of keys) key.push(v);
      }
      for (const key of keys) {
        const id = key.length === 0 ? '' : key.length === 1 && typeof key[0] !== 'object' ? String(key[0]) : JSON.stringify(key);
        let g = groups.get(id);
        if (!g) {
          g = newGroup(key);
          groups.set(id, g);
        }
        count(g, i);
      }
    }
  }

  return groups;
}

/** The answer (SiteInsightsQueryEventsAggregationResult) of the groups counted for `plan`. */
export function answer(plan: Plan, groups: Map<unknown, Group>): { columns: Record<string, unknown>[] } {
  const { q, groupCols, select, after, limit } = plan;
  const metric = (g: Group, column: string): unknown =>
    column === 'eventsCount'
      ? g.events
      : column === 'sessionsCount'
        ? g.sessions.size
        : column === 'visitorsCount'
          ? g.visitors.size
          : column === 'pageFeedbackRating'
            ? { ...g.feedback }
            : { ...g.ask };
  const positions = new Map(groupCols.map((c, k) => [keyOfRef(c), k]));
  const answerOf = (g: Group, c: ColumnRef) => (METRICS.has(c.column) ? metric(g, c.column) : g.key[positions.get(keyOfRef(c))!]);

  let rows = [...groups.values()].filter((g) => after.every((f) => f.test(metric(g, f.ref.column))));
  const timeAt = groupCols.findIndex((c) => c.column === 'datetime');
  const order =
    q.order ?? (timeAt >= 0 ? { by: groupCols[timeAt]!, direction: 'asc' as const } : { by: { column: 'eventsCount' }, direction: 'desc' as const });
  const sign = order.direction === 'desc' ? -1 : 1;
  const byKey = (a: Group, b: Group) => {
    for (let k = 0; k < a.key.length; k++) {
      const c = compare(a.key[k], b.key[k]);
      if (c) return c;
    }
    return 0;
  };
  const sortValue = (g: Group) => {
    const v = answerOf(g, order.by);
    if (order.by.column === 'pageFeedbackRating') return (v as any).good - (v as any).bad;
    if (order.by.column === 'askResponseRating') return (v as any).positive - (v as any).negative;
    return v;
  };
  rows.sort((a, b) => sign * compare(sortValue(a), sortValue(b)) || byKey(a, b));
  rows = rows.slice(0, limit);

  return {
    columns: select.map((c) => {
      const values = rows.map((g) => {
        const v = answerOf(g, c);
        return c.column === 'datetime' ? new Date(v as number).toISOString() : v;
      });
      return c.column === 'visitorClaim' ? { column: c.column, claim: c.claim, values } : { column: c.column, values };
    }),
  };
}

/** The visitor segments of a site (listSiteVisitorSegments): events by their visitors' claims. */
export function visitorSegments(batches: readonly InsightBatchRecord[], since: number) {
  const segs = new Map<string, { claims: Record<string, unknown>; events: number; visitors: Set<string>; sessions: Set<string> }>();
  for (const b of batches) {
    const cl = b.cols.claims;
    for (let i = 0; i < b.dt.length; i++) {
      if (b.t0 + b.dt[i]! < since) continue;
      const raw = cl && cl[i]! >= 0 ? b.dict[cl[i]!]! : '{}';
      const claims = JSON.parse(raw) as Record<string, unknown>;
      const key = JSON.stringify(Object.fromEntries(Object.entries(claims).sort(([a], [c]) => (a < c ? -1 : 1))));
      let s = segs.get(key);
      if (!s) segs.set(key, (s = { claims, events: 0, visitors: new Set(), sessions: new Set() }));
      s.events++;
      const v = b.cols.visitor?.[i] ?? -1;
      const se = b.cols.session?.[i] ?? -1;
      if (v >= 0) s.visitors.add(b.dict[v]!);
      if (se >= 0) s.sessions.add(b.dict[se]!);
    }
  }
  return [...segs.entries()]
    .map(([key, s]) => ({
      title:
        key === '{}'
          ? 'Anonymous visitors'
          : Object.entries(s.claims)
              .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
              .join(', '),
      claims: s.claims,
      events: s.events,
      visitors: s.visitors.size,
      sessions: s.sessions.size,
    }))
    .sort((a, b) => b.events - a.events || (a.title < b.title ? -1 : 1));
}
