import { apiUrl, type Caller, type Context } from '../kernel/context.js';
import { invalid } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { loadIpaddr, refusedLiteral } from '../kernel/outbound-guard.js';
import type { Role } from '../kernel/roles.js';
import { paginate } from '../kernel/pagination.js';
import { fetchLimits } from '../openapi/fetch.js';
import { SITE_ADMIN, SITE_READ, siteOf, type SiteSeen } from '../sites/access.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import * as connections from './connections.js';
import { CrawlFailure, crawlWebsite, probeWebsite } from './connectors/website.js';
import type { ContextConnectionRecord } from './model.js';
import * as records from './records.js';
import { kickSiteScans } from './scan-worker.js';
import { ContextConnections } from './tables.js';

// The context connections and records of a site (docs/manual/site-context.md#connections-and-records):
// reading them needs the site's read role, changing them its admin role, as every site setting
// (src/sites/access.ts). The rules are in connections.ts and records.ts; a website's crawl in
// connectors/website.ts runs between two writes, outside any transaction.

type P = Record<string, string>;

const write = <R>(ctx: Context, caller: Caller, path: P, need: Role, action: string, fn: (tx: WriteTx, seen: SiteSeen) => R) =>
  ctx.store.write((tx) => fn(tx, siteOf(tx, caller, path.organizationId!, path.siteId!, need, action)));
const read = <R>(ctx: Context, caller: Caller, path: P, action: string, fn: (tx: ReadTx, seen: SiteSeen) => R) =>
  ctx.store.read((tx) => fn(tx, siteOf(tx, caller, path.organizationId!, path.siteId!, SITE_READ, action)));

/**
 * The guard's refusal of a website URL that can be judged without fetching it: an IP literal the
 * outbound guard refuses, or `localhost` (DOCS_FETCH_ALLOW_PRIVATE=1 allows both, as for every fetch).
 */
async function urlCheck(): Promise<connections.UrlCheck> {
  if (fetchLimits().allowPrivate) return () => undefined;
  const ip = await loadIpaddr();
  return (url) => {
    const host = url.hostname.toLowerCase().replace(/\.$/, '');
    if (host === 'localhost' || host.endsWith('.localhost'))
      return `${url.host} is this machine: refused (private and local addresses are not fetched; DOCS_FETCH_ALLOW_PRIVATE=1 allows them)`;
    const why = refusedLiteral(ip, url);
    return why && `${url.host}: ${why}: refused (private and local addresses are not fetched; DOCS_FETCH_ALLOW_PRIVATE=1 allows them)`;
  };
}

const show = (ctx: Context, tx: ReadTx, r: ContextConnectionRecord) => connections.presentConnection(ctx, r, records.recordCounts(tx, r.site).get(r.id) ?? 0);

// ---- Connections -------------------------------------------------------------------------------

export const listSiteContextConnections = defineOperation('listSiteContextConnections', ({ ctx, caller, path, query }) =>
  read(ctx, caller, path, 'listing the context connections of a site', (tx, { site }) => {
    const counts = records.recordCounts(tx, site.id);
    const all = connections.connectionsOf(tx, site.id);
    return { status: 200, body: paginate(all, query, (r) => connections.presentConnection(ctx, r, counts.get(r.id) ?? 0)) as any };
  }),
);

export const createSiteContextConnection = defineOperation('createSiteContextConnection', async ({ ctx, caller, path, body }) => {
  const check = await urlCheck();
  const made = await write(ctx, caller, path, SITE_ADMIN, 'adding a context connection to a site', (tx, { site }) =>
    connections.createConnection(tx, ctx, caller, site, body as connections.ConnectionBody, check),
  );
  return {
    status: 201,
    headers: { Location: apiUrl(ctx, `/orgs/${made.organization}/sites/${made.site}/context-connections/${made.id}`) },
    body: connections.presentConnection(ctx, made, 0),
  };
});

export const getSiteContextConnectionById = defineOperation('getSiteContextConnectionById', ({ ctx, caller, path }) =>
  read(ctx, caller, path, 'reading a context connection of a site', (tx, { site }) => ({
    status: 200,
    body: show(ctx, tx, connections.connectionOf(tx, site, path.siteContextConnectionId!)),
  })),
);

export const updateSiteContextConnectionById = defineOperation('updateSiteContextConnectionById', async ({ ctx, caller, path, body }) => {
  const check = await urlCheck();
  return {
    status: 200,
    body: await write(ctx, caller, path, SITE_ADMIN, 'changing a context connection of a site', (tx, { site }) =>
      show(ctx, tx, connections.updateConnection(tx, ctx, site, path.siteContextConnectionId!, body as connections.ConnectionBody, check)),
    ),
  };
});

export const deleteSiteContextConnectionById = defineOperation('deleteSiteContextConnectionById', async ({ ctx, caller, path }) => {
  const deleted = await write(ctx, caller, path, SITE_ADMIN, 'removing a context connection of a site', (tx, { site }) =>
    connections.deleteConnection(tx, site, path.siteContextConnectionId!),
  );
  return { status: deleted ? 205 : 204 };
});

/** A sync still marked running after this long was cut off (the process stopped): another may start. */
const STALE_SYNC_MS = 10 * 60_000;

/**
 * builtin:api: the records are what was pushed, so a sync marks the connection synced (its
 * `records` is always counted). builtin:website: marked `syncing`, the site crawled, then one
 * write: every page's record replacing the connection's records and `succeeded`, or `failed`
 * with the reason and no record changed. The answer comes once the sync is done.
 */
export const syncSiteContextConnection = defineOperation('syncSiteContextConnection', async ({ ctx, caller, path }) => {
  const id = path.siteContextConnectionId!;
  const action = 'syncing a context connection of a site';
  const started = await write(ctx, caller, path, SITE_ADMIN, action, (tx, { site }) => {
    const r = connections.connectionOf(tx, site, id);
    const now = ctx.clock.now();
    if (r.connector === 'builtin:api') {
      const { failureMessage: _m, failureReason: _r, syncStartedAt: _s, ...rest } = r;
      tx.put(ContextConnections, { ...rest, status: 'succeeded', syncedAt: now.toISOString(), updatedAt: now.toISOString() });
      return undefined;
    }
    if (r.status === 'syncing' && r.syncStartedAt && now.getTime() - Date.parse(r.syncStartedAt) < STALE_SYNC_MS)
      throw invalid(`siteContextConnectionId: connection ${id} is being synced since ${r.syncStartedAt}; wait for it to end`);
    const mark = now.toISOString();
    tx.put(ContextConnections, { ...r, status: 'syncing', syncStartedAt: mark, updatedAt: mark });
    return { url: String(r.setupSettings?.url), mark };
  });
  if (!started) return { status: 204 };
  let outcome: { pages: records.RecordInput[] } | { failure: CrawlFailure };
  try {
    outcome = { pages: await crawlWebsite(started.url) };
  } catch (err) {
    outcome = { failure: err instanceof CrawlFailure ? err : new CrawlFailure('unknown', err instanceof Error ? err.message : String(err)) };
  }
  // The second write: the connection may have been removed or synced again meanwhile (then this run's result is dropped).
  await ctx.store.write((tx) => {
    const r = tx.get(ContextConnections, id);
    if (r?.status !== 'syncing' || r.syncStartedAt !== started.mark) return;
    const now = ctx.clock.now().toISOString();
    const { syncStartedAt: _s, failureMessage: _m, failureReason: _r, ...rest } = r;
    if ('failure' in outcome) {
      tx.put(ContextConnections, {
        ...rest,
        status: 'failed',
        failureReason: outcome.failure.reason,
        failureMessage: outcome.failure.message.slice(0, 1000),
        updatedAt: now,
      });
      return;
    }
    try {
      records.writeRecords(tx, ctx, r, outcome.pages, { replaceAll: true, field: 'pages' });
    } catch (err) {
      // A page over the limits (its body's size): the sync fails, the records stay as they were.
      tx.put(ContextConnections, {
        ...rest,
        status: 'failed',
        failureReason: 'misconfigured',
        failureMessage: (err as Error).message.slice(0, 1000),
        updatedAt: now,
      });
      return;
    }
    tx.put(ContextConnections, { ...rest, status: 'succeeded', syncedAt: now, updatedAt: now });
  });
  kickSiteScans(ctx, path.siteId); // the worker scans only if the records changed (its fingerprint)
  return { status: 204 };
});

/** builtin:api has nothing to verify (success); builtin:website: one guarded GET of its address. Changes nothing. */
export const testSiteContextConnection = defineOperation('testSiteContextConnection', async ({ ctx, caller, path }) => {
  const r = await ctx.store.read((tx) => {
    const { site } = siteOf(tx, caller, path.organizationId!, path.siteId!, SITE_ADMIN, 'testing a context connection of a site');
    return connections.connectionOf(tx, site, path.siteContextConnectionId!);
  });
  const result = r.connector === 'builtin:website' ? await probeWebsite(String(r.setupSettings?.url)) : { success: true };
  return { status: 200, body: { object: 'context-connection-test-result' as const, ...result } };
});

// ---- Records -----------------------------------------------------------------------------------

export const listSiteContextRecords = defineOperation('listSiteContextRecords', ({ ctx, caller, path, query }) =>
  read(ctx, caller, path, 'listing the context records of a site', (tx, { site }) => {
    const q = query as { type?: string; connector?: string; connection?: string; topic?: string };
    const topics = records.recordTopics(tx, site.id);
    const all = records
      .recordsOfSite(tx, site.id)
      .filter(
        (r) =>
          (q.type === undefined || r.type === q.type) &&
          (q.connector === undefined || r.connector === q.connector) &&
          (q.connection === undefined || r.connection === q.connection) &&
          (q.topic === undefined || (topics.get(r.id) ?? []).includes(q.topic)),
      );
    return { status: 200, body: paginate(all, query, (r) => records.presentRecord(ctx, r, topics.get(r.id))) as any };
  }),
);

export const upsertSiteContextRecords = defineOperation('upsertSiteContextRecords', async ({ ctx, caller, path, body }) => {
  await write(ctx, caller, path, SITE_ADMIN, 'pushing context records to a site', (tx, { site }) =>
    records.upsertRecords(tx, ctx, site, body as unknown as records.RecordInput[]),
  );
  kickSiteScans(ctx, path.siteId); // new evidence: the site's findings are worked out again
  return { status: 204 };
});

export const getSiteContextRecordById = defineOperation('getSiteContextRecordById', ({ ctx, caller, path }) =>
  read(ctx, caller, path, 'reading a context record of a site', (tx, { site }) => {
    const r = records.recordOf(tx, site, path.siteContextRecordId!);
    return { status: 200, body: records.presentRecord(ctx, r, records.recordTopics(tx, site.id).get(r.id)) };
  }),
);
