import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { spin } from '../_lib/operation-command.js';
import { orgFlag, organizationOf } from '../_lib/org.js';
import { renderList } from '../_lib/render.js';

// `docs sites insights SITE`: the site's traffic over a range as a sparkline (events per day or
// hour), the totals, and the top values of one column (pages by URL by default) as a table.
// Two calls of aggregateSiteEvents (docs/manual/insights.md#in-the-terminal).

type Values = { column: string; values: unknown[] };
const RANGES = ['last24Hours', 'last7Days', 'last30Days', 'last3Months', 'lastYear'] as const;
const DAY = 86_400_000;
const SPAN: Record<string, number> = { last24Hours: DAY, last7Days: 7 * DAY, last30Days: 30 * DAY, last3Months: 92 * DAY, lastYear: 366 * DAY };
const BY = [
  'url',
  'eventType',
  'eventSearchQuery',
  'referrerDomain',
  'visitorDevice',
  'visitorBrowser',
  'visitorOS',
  'visitorLanguage',
  'eventLinkTargetDomain',
  'utmSource',
  'utmCampaign',
];

/** Counts as a one-line chart scaled to the largest (a space for none). */
export function sparkline(values: number[]): string {
  const bars = '▁▂▃▄▅▆▇█';
  const max = Math.max(0, ...values);
  return values.map((v) => (max === 0 || v === 0 ? ' ' : bars[Math.min(7, Math.floor((v / max) * 7))])).join('');
}

/** Counts per bucket from `from` to `to`, the buckets with no event as 0 (the API answers only those with events). */
export function filled(times: string[], counts: number[], from: number, to: number, step: number): number[] {
  const at = new Map(times.map((t, i) => [Date.parse(t), counts[i]!]));
  const out: number[] = [];
  for (let t = Math.floor(from / step) * step; t <= to; t += step) out.push(at.get(t) ?? 0);
  return out;
}

export default class SitesInsights extends DocsCommand {
  static operations = ['aggregateSiteEvents'];
  static summary = "Show a site's insights: traffic as a sparkline, totals, and the top pages (or searches, referrers, ...)";
  static description =
    'API: POST /v1/orgs/{organizationId}/sites/{siteId}/insights/events/aggregate (aggregateSiteEvents), twice: events per day (per hour for --range last24Hours) and the top values of --by. The published site records its page views, searches, feedback and links followed itself (docs/manual/insights.md).';
  static examples = [
    '<%= config.bin %> sites insights szK9Qp2mTtR4bLx0aVn1',
    '<%= config.bin %> sites insights szK9Qp2mTtR4bLx0aVn1 --range last30Days --by eventSearchQuery --limit 20',
    '<%= config.bin %> sites insights szK9Qp2mTtR4bLx0aVn1 --type page_view --json',
  ];
  static args = { siteId: Args.string({ description: 'The site (its ID)', required: true }) };
  static flags = {
    org: orgFlag(),
    range: Flags.string({ description: 'Time range (default last7Days)', options: [...RANGES], default: 'last7Days' }),
    by: Flags.string({ description: 'The column of the table (default url: the pages visited)', options: BY, default: 'url' }),
    type: Flags.string({ description: 'Only events of this type (e.g. page_view, search_type_query, link_click)' }),
    limit: Flags.integer({ description: 'Rows of the table (1 to 1000, default 10)', min: 1, max: 1000, default: 10 }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(SitesInsights);
    const transport = await this.transport(flags);
    const organizationId = await organizationOf(flags, transport);
    const path = { organizationId, siteId: args.siteId };
    const where = flags.type ? [{ column: 'eventType', values: [flags.type] }] : undefined;
    const interval = flags.range === 'last24Hours' ? 'hour' : 'day';
    const call = (body: object) =>
      spin(transport.remote, 'POST insights/events/aggregate', () =>
        transport.call('aggregateSiteEvents', { path, body: { range: flags.range, ...(where ? { where } : {}), ...body } }),
      );
    const series = (
      await call({
        select: [{ column: 'datetime', interval }, { column: 'eventsCount' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }],
      })
    ).body as { columns: Values[] };
    const totals = (await call({ select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }] })).body as {
      columns: Values[];
    };
    const top = (
      await call({
        groupBy: [{ column: flags.by }],
        select: [{ column: flags.by }, { column: 'eventsCount' }, { column: 'visitorsCount' }],
        order: { by: { column: 'eventsCount' }, direction: 'desc' },
        limit: flags.limit,
      })
    ).body as { columns: Values[] };
    // Columns by name: a server answers those asked for, in order, but a reader should not crash on less.
    const col = (b: { columns?: Values[] }, name: string) => b.columns?.find((c) => c.column === name)?.values ?? [];
    const now = Date.now();
    const step = interval === 'hour' ? 3_600_000 : DAY;
    const counts = filled(col(series, 'datetime') as string[], col(series, 'eventsCount') as number[], now - SPAN[flags.range]!, now, step);
    const total = (name: string) => Number(col(totals, name)[0] ?? 0);
    if (!this.jsonEnabled()) {
      this.log(
        `${flags.range}: ${total('eventsCount')} events, ${total('visitorsCount')} visitors, ${total('sessionsCount')} sessions${flags.type ? ` (${flags.type} only)` : ''}`,
      );
      this.log(`per ${interval}  ${sparkline(counts)}  (max ${Math.max(0, ...counts)})`);
      const [label, ev, vi] = [col(top, flags.by), col(top, 'eventsCount'), col(top, 'visitorsCount')];
      const rows = label.map((v, i) => ({
        [flags.by]: v === null ? '(none)' : typeof v === 'object' ? JSON.stringify(v) : String(v),
        events: ev[i] ?? 0,
        visitors: vi[i] ?? 0,
      }));
      this.log(rows.length ? `\n${await renderList(rows)}` : '\nNo events in this range.');
    }
    return { range: flags.range, interval, totals: totals.columns, series: series.columns, top: top.columns };
  }
}
