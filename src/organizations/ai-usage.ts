import { invalid } from '../kernel/errors.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { table } from '../store/port.js';

// AI usage (getOrganizationAIUsage, docs/manual/organizations.md#ai-usage): what this server's AI
// features did for an organization, counted by UTC day. There is no model billed here and no
// credit price: one credit is one run, a question answered by ask (every ask operation, on the
// organization or a site) or a translation run that ended with a result. The counts are kept as
// one small row per organization, day and feature, written in the same transaction as the run's
// own record, so they cannot drift from what was stored.

export type AIFeature = 'ask' | 'translation';

export interface AIUsageRecord {
  /** `<organization>.<YYYY-MM-DD>.<feature>`: the shard is in the id. */
  id: string;
  organization: string;
  /** The UTC day. */
  date: string;
  feature: AIFeature;
  credits: number;
}

/** In the organization's ask shard (src/store/tables.ts): a busy site's questions never slow the organization's other writes. */
export const AIUsage = table<AIUsageRecord, 'organization'>('aiUsage');

/** One more run of `feature` on `now`'s UTC day. */
export function recordAIUsage(tx: WriteTx, organization: string, feature: AIFeature, now: string): void {
  const date = now.slice(0, 10);
  const id = `${organization}.${date}.${feature}`;
  const old = tx.get(AIUsage, id);
  tx.put(AIUsage, { id, organization, date, feature, credits: (old?.credits ?? 0) + 1 });
}

export type AIUsageInterval = 'day' | 'week' | 'month' | 'year';
const DAY = 86_400_000;
/** How far back a range may start (the contract: "cannot be older than two years from now"). */
const MAX_AGE_DAYS = 731;

/** The UTC date (YYYY-MM-DD) starting `day`'s calendar bucket; weeks start on Monday. */
function bucketStart(day: string, interval: AIUsageInterval): string {
  if (interval === 'day') return day;
  if (interval === 'month') return `${day.slice(0, 7)}-01`;
  if (interval === 'year') return `${day.slice(0, 4)}-01-01`;
  const t = Date.parse(`${day}T00:00:00Z`);
  const weekday = (new Date(t).getUTCDay() + 6) % 7; // Monday 0
  return new Date(t - weekday * DAY).toISOString().slice(0, 10);
}

/**
 * The usage between `from` (inclusive) and `to` (exclusive, capped at now), by calendar bucket,
 * empty buckets included. Usage is counted by UTC day: a day is in the range when the instant it
 * starts is (so `from` at midnight UTC counts its day; at 10:00, from the next day on).
 */
export function aiUsage(tx: ReadTx, organization: string, q: { from: string; to: string; interval?: AIUsageInterval }, now: Date) {
  const interval = q.interval ?? 'day';
  const from = Date.parse(q.from);
  let to = Date.parse(q.to);
  if (Number.isNaN(from)) throw invalid(`from: not a date-time: ${q.from}`);
  if (Number.isNaN(to)) throw invalid(`to: not a date-time: ${q.to}`);
  if (from < now.getTime() - MAX_AGE_DAYS * DAY) throw invalid(`from: ${q.from} is more than two years ago`);
  if (to <= from) throw invalid(`to: ${q.to} must be after from (${q.from})`);
  to = Math.min(to, now.getTime());
  const days: string[] = [];
  for (let t = Math.ceil(from / DAY) * DAY; t < to; t += DAY) days.push(new Date(t).toISOString().slice(0, 10));
  const wanted = new Set(days);
  const periods = new Map<string, { date: string; credits: number; features: Map<string, number> }>();
  for (const d of days) {
    const b = bucketStart(d, interval);
    if (!periods.has(b)) periods.set(b, { date: b, credits: 0, features: new Map() });
  }
  for (const row of tx.find(AIUsage, 'organization', organization)) {
    if (!wanted.has(row.date)) continue;
    const p = periods.get(bucketStart(row.date, interval))!;
    p.credits += row.credits;
    p.features.set(row.feature, (p.features.get(row.feature) ?? 0) + row.credits);
  }
  return {
    from: new Date(from).toISOString(),
    to: new Date(Math.max(to, from)).toISOString(),
    periods: [...periods.values()].map((p) => ({
      date: p.date,
      credits: p.credits,
      features: [...p.features]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([feature, credits]) => ({ feature, credits, creditsPercent: Math.round((credits / p.credits) * 10_000) / 100 })),
    })),
  };
}
