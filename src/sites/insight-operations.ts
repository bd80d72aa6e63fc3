import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { SITE_READ, siteOf } from './access.js';
import { batchesOf, eventFromApi, MAX_EVENTS, recordEvents } from './insights.js';
import { type AggregationQuery, answer, collectRaw, planOf, visitorSegments } from './insights-query.js';
import { rollupsOf } from './insight-rollups.js';
import { collectRollups } from './insights-rollup-query.js';
import { invalid } from '../kernel/errors.js';

// Site insights (docs/manual/insights.md): events recorded by the published site itself (its
// beacon, server/published/sites.ts) or sent through the API, their aggregation and the visitor
// segments. Any member who sees the site (read and up) may record and read them.

const SEGMENT_WINDOW_MS = 30 * 86_400_000;

export const trackEventsInSiteById = defineOperation('trackEventsInSiteById', async ({ ctx, caller, path, body }) => {
  const events = (body as { events: unknown[] }).events;
  if (events.length > MAX_EVENTS) throw invalid(`events: at most ${MAX_EVENTS} events in one call (got ${events.length})`);
  await ctx.store.write((tx) => {
    const { site } = siteOf(tx, caller, path.organizationId!, path.siteId!, SITE_READ, `recording events of site ${path.siteId}`);
    const now = ctx.clock.now();
    // Every event is checked before any is stored: one refused event refuses the batch.
    const parsed = events.map((e, i) => eventFromApi(tx, site, e, i, now.getTime()));
    recordEvents(tx, site, parsed, now);
  });
  return { status: 204 };
});

export const aggregateSiteEvents = defineOperation('aggregateSiteEvents', ({ ctx, caller, path, body }) =>
  ctx.store.read((tx) => {
    const { site } = siteOf(tx, caller, path.organizationId!, path.siteId!, SITE_READ, `reading the insights of site ${path.siteId}`);
    const plan = planOf(body as AggregationQuery, ctx.clock.now().getTime());
    // From the rollups when they can say (a site with none: its events, if any, predate them),
    // else from the events themselves (docs/manual/insights.md#rollups).
    const rollups = rollupsOf(tx, site.id);
    const groups = (rollups.length ? collectRollups(rollups, plan) : undefined) ?? collectRaw(batchesOf(tx, site.id), plan);
    return { status: 200, body: answer(plan, groups) as any };
  }),
);

export const listSiteVisitorSegments = defineOperation('listSiteVisitorSegments', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const { site } = siteOf(tx, caller, path.organizationId!, path.siteId!, SITE_READ, `reading the insights of site ${path.siteId}`);
    const segments = visitorSegments(batchesOf(tx, site.id), ctx.clock.now().getTime() - SEGMENT_WINDOW_MS);
    return { status: 200, body: paginate(segments, query as any) };
  }),
);
