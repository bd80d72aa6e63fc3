import type { Schema } from '../contract/types.js';
import { apiUrl, type Caller, type Context } from '../kernel/context.js';
import { conflict, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { SiteRecord } from '../sites/model.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import type { ContextConnectionRecord, ContextUsageSettingsRecord } from './model.js';
import { deleteRecordsOf } from './records.js';
import { ContextConnections, ContextRecords } from './tables.js';

// A site's context connections (docs/manual/site-context.md#connections-and-records): the rules of
// creating, changing and removing one. What a connection does when synced is in connection-sync.ts
// (builtin:api: records pushed through upsertSiteContextRecords; builtin:website: a crawl of one
// site); every other connector needs a service outside this machine and is refused at creation.

/** Connectors served here. */
export const SERVED_CONNECTORS = ['builtin:api', 'builtin:website'] as const;

/** Why each connector this server cannot serve is refused (docs/manual/site-context.md#connectors-this-server-cannot-reach). */
const ELSEWHERE: Record<string, string> = {
  'builtin:email': 'it needs an inbound mail server receiving at an ingestion address, and this server receives no mail',
  'builtin:youtube': "it reads a channel through YouTube's API, which this server does not reach (it holds no Google API key)",
  'builtin:github-discussions': "it reads discussions through GitHub's API, which this server does not reach",
  'builtin:github-issues': "it reads issues through GitHub's API, which this server does not reach",
  'builtin:intercom': "it reads conversations through Intercom's API, which this server does not reach",
  'builtin:front': "it reads conversations through Front's API, which this server does not reach",
  'builtin:zendesk': "it reads tickets through Zendesk's API, which this server does not reach",
  'builtin:zoho-desk': "it reads tickets through Zoho Desk's API, which this server does not reach",
  'builtin:freshdesk': "it reads tickets through Freshdesk's API, which this server does not reach",
  'builtin:pylon': "it reads issues through Pylon's API, which this server does not reach",
  'builtin:hubspot': "it reads tickets through HubSpot's API, which this server does not reach",
  'builtin:linear': "it reads issues through Linear's API, which this server does not reach",
  'builtin:jira': "it reads and updates issues through Jira Cloud's API, which this server does not reach",
};
const HOW = 'push records with builtin:api (upsertSiteContextRecords) or crawl a site with builtin:website';

/** At most this many connections per site (400 beyond). */
export const MAX_CONNECTIONS = 50;

/** 400 naming the connector and why, unless this server serves it. */
export function requireServed(connector: string): asserts connector is (typeof SERVED_CONNECTORS)[number] {
  if ((SERVED_CONNECTORS as readonly string[]).includes(connector)) return;
  if (connector.startsWith('integration:'))
    throw invalid(
      `connector: ${connector} cannot be reached from this server: an integration's context source runs on GitBook's integration platform, which this server does not host; ${HOW}`,
    );
  const why = ELSEWHERE[connector];
  throw invalid(`connector: ${connector} cannot be reached from this server: ${why ?? 'it is not a connector this server knows'}; ${HOW}`);
}

/**
 * Why a website URL is refused before anything is fetched (credentials, a scheme other than
 * http(s), an address the outbound guard refuses when it is an IP literal), or undefined. The
 * operation passes the guard's check (it loads ipaddr.js, which a transaction cannot await).
 */
export type UrlCheck = (url: URL) => string | undefined;

function websiteSettings(settings: unknown, check: UrlCheck): { url: string } {
  const given = (settings ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(given)) if (k !== 'url') throw invalid(`setupSettings.${k}: a builtin:website connection takes url only`);
  const text = given.url;
  if (typeof text !== 'string') throw invalid('setupSettings.url: the address of the site to read is required');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(`setupSettings.url: ${JSON.stringify(text)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(`setupSettings.url: only http and https sites are read (got ${url.protocol})`);
  if (url.username || url.password) throw invalid('setupSettings.url: a URL with a user name or password is refused (credentials are not kept)');
  if (text.length > 2048) throw invalid('setupSettings.url: at most 2,048 characters');
  const why = check(url);
  if (why) throw invalid(`setupSettings.url: ${why}`);
  url.hash = '';
  return { url: url.href };
}

/** The connector's setup as stored: builtin:api takes no settings; builtin:website its URL. */
function setupOf(connector: string, settings: unknown, check: UrlCheck): Record<string, unknown> | undefined {
  requireServed(connector);
  if (connector === 'builtin:website') return websiteSettings(settings, check);
  if (settings !== undefined && Object.keys(settings as object).length) throw invalid('setupSettings: a builtin:api connection takes no settings');
  return undefined;
}

const DEFAULT_USAGE: ContextUsageSettingsRecord = { changeRequests: true, search: true, searchBoost: 'x1.0' };

function usageOf(given: any, connector: string): ContextUsageSettingsRecord {
  if (given === undefined) return { ...DEFAULT_USAGE };
  // `sync` writes change-request state back to the source: a website or this server's API has nowhere to write it.
  if (given.sync === true) throw invalid(`usageSettings.sync: a ${connector} connection has no external system to write change-request state to`);
  return {
    changeRequests: given.changeRequests,
    search: given.search,
    searchBoost: given.searchBoost,
    ...(given.sync === false ? { sync: false } : {}),
  };
}

/** One builtin:api connection per site: upsertSiteContextRecords names no connection, so it writes to that one. */
function oneApiConnection(tx: ReadTx, site: SiteRecord, connector: string) {
  if (connector !== 'builtin:api') return;
  const other = connectionsOf(tx, site.id).find((c) => c.connector === 'builtin:api');
  if (other) throw conflict(`connector: site ${site.id} already has a builtin:api connection (${other.id}); records are pushed to that one`);
}

/** A site's connections, oldest first. */
export function connectionsOf(tx: ReadTx, siteId: string): ContextConnectionRecord[] {
  return tx.find(ContextConnections, 'site', siteId).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

export function connectionOf(tx: ReadTx, site: SiteRecord, id: string): ContextConnectionRecord {
  const r = tx.get(ContextConnections, id);
  if (!r || r.site !== site.id) throw notFound(`context connection ${id} not found in site ${site.id}`);
  return r;
}

export interface ConnectionBody {
  connector?: unknown;
  setupSettings?: unknown;
  usageSettings?: unknown;
  label?: unknown;
  filter?: unknown;
}

export function createConnection(tx: WriteTx, ctx: Context, caller: Caller, site: SiteRecord, body: ConnectionBody, check: UrlCheck): ContextConnectionRecord {
  const connector = String(body.connector);
  const setupSettings = setupOf(connector, body.setupSettings, check);
  const existing = connectionsOf(tx, site.id);
  if (existing.length >= MAX_CONNECTIONS)
    throw invalid(`connector: site ${site.id} has ${existing.length} connections, the most a site may have (${MAX_CONNECTIONS})`);
  oneApiConnection(tx, site, connector);
  const now = ctx.clock.now().toISOString();
  return tx.put(ContextConnections, {
    id: newId(),
    organization: site.organization,
    site: site.id,
    connector,
    ...(setupSettings ? { setupSettings } : {}),
    ...(typeof body.label === 'string' && body.label ? { label: body.label } : {}),
    ...(typeof body.filter === 'string' && body.filter ? { filter: body.filter } : {}),
    status: 'pending',
    usageSettings: usageOf(body.usageSettings, connector),
    createdAt: now,
    updatedAt: now,
    createdBy: caller.userId,
  });
}

/**
 * PATCH: a new setup (its connector must stay the same: the records came from it), usage settings,
 * label, filter. An empty label or filter removes it. A new website URL makes the connection
 * `pending` again (its records stay until the next sync replaces them).
 */
export function updateConnection(tx: WriteTx, ctx: Context, site: SiteRecord, id: string, body: ConnectionBody, check: UrlCheck): ContextConnectionRecord {
  const r = connectionOf(tx, site, id);
  const next: ContextConnectionRecord = { ...r, updatedAt: ctx.clock.now().toISOString() };
  if (body.connector !== undefined) {
    if (body.connector !== r.connector)
      throw invalid(`connector: a connection's connector cannot change (this one is ${r.connector}); create another connection for ${String(body.connector)}`);
    const setup = setupOf(r.connector, body.setupSettings, check);
    if (JSON.stringify(setup) !== JSON.stringify(r.setupSettings)) {
      if (setup) next.setupSettings = setup;
      else delete next.setupSettings;
      next.status = 'pending';
      delete next.failureMessage;
      delete next.failureReason;
    }
  } else if (body.setupSettings !== undefined) throw invalid('connector: give the connector with setupSettings');
  if (body.usageSettings !== undefined) next.usageSettings = usageOf(body.usageSettings, r.connector);
  for (const field of ['label', 'filter'] as const) {
    const v = body[field];
    if (v === undefined) continue;
    if (typeof v === 'string' && v) next[field] = v;
    else delete next[field];
  }
  return tx.put(ContextConnections, next);
}

/** Removes a connection and, in the same write, every record it brought in; false when there was none. */
export function deleteConnection(tx: WriteTx, site: SiteRecord, id: string): boolean {
  const r = tx.get(ContextConnections, id);
  if (!r || r.site !== site.id) return false;
  deleteRecordsOf(tx, r.site, r.id);
  tx.delete(ContextConnections, r.id);
  return true;
}

/**
 * Removes every connection of a site and every record they brought in, in the caller's write: for
 * deleting the site (src/site-deletion.ts on main calls each area's removal in the deleting write).
 */
export function removeSiteContextConnections(tx: WriteTx, siteId: string): void {
  for (const r of tx.find(ContextRecords, 'site', siteId)) tx.delete(ContextRecords, r.id);
  for (const c of tx.find(ContextConnections, 'site', siteId)) tx.delete(ContextConnections, c.id);
}

/** The contract's ContextConnection; `records` is counted from the site's records (records.ts). */
export function presentConnection(ctx: Context, r: ContextConnectionRecord, records: number): Schema<'ContextConnection'> {
  return {
    object: 'context-connection',
    id: r.id,
    connector: r.connector,
    ...(r.setupSettings ? { setupSettings: r.setupSettings } : {}),
    createdAt: r.createdAt,
    ...(r.syncedAt ? { syncedAt: r.syncedAt } : {}),
    ...(r.label ? { label: r.label } : {}),
    ...(r.filter ? { filter: r.filter } : {}),
    status: r.status,
    records,
    ...(r.failureMessage ? { failureMessage: r.failureMessage } : {}),
    ...(r.failureReason ? { failureReason: r.failureReason } : {}),
    usageSettings: r.usageSettings as Schema<'ContextUsageSettings'>,
    urls: { location: apiUrl(ctx, `/orgs/${r.organization}/sites/${r.site}/context-connections/${r.id}`) },
    // Asserted: the generated type of an allOf over the setup's oneOf cannot take the stored
    // connector (a string); the answer is checked against the spec's schema itself.
  } as unknown as Schema<'ContextConnection'>;
}
