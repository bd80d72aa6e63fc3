import { invalid } from '../kernel/errors.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import type { InsightBatchRecord, SiteRecord } from './model.js';
import { deleteRollupsOf, rollUp } from './insight-rollups.js';
import { SiteInsightBatches, SiteSections, SiteSpaces } from './tables.js';

// Site insights (docs/manual/insights.md): the events a published site records (page views,
// searches, feedback, link clicks), stored per site in append-only batches, and their
// aggregation (select / where / groupBy / order / range / limit, as SiteInsightsQueryEventsAggregation
// defines them). A batch is one immutable row holding its events column by column, each column's
// values as indexes into the batch's own dictionary: a page view costs a few small integers, and
// an aggregation walks integer arrays, never objects.

/**
 * The event types stored: those both specs know (0.146.0's SiteInsightsEventType), then 0.202.0's
 * `agent_feedback` (what an agent reports about the site: submitAgentFeedbackToSite,
 * docs/manual/site-agents.md#agent-feedback). A type's index is stored: only ever append.
 */
export const EVENT_TYPES = [
  'page_view',
  'search_open',
  'search_type_query',
  'search_open_result',
  'page_post_feedback',
  'page_post_feedback_comment',
  'ask_question',
  'ask_view',
  'ask_rate_response',
  'link_click',
  'api_client_open',
  'api_client_request',
  'ad_click',
  'ad_display',
  'trademark_click',
  'agent_feedback',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
const TYPE_INDEX = new Map<string, number>(EVENT_TYPES.map((t, i) => [t, i]));

/** Events may be dated up to this far from the server's clock, either way (the spec's "within 5 minutes"). */
export const TIMESTAMP_TOLERANCE_MS = 5 * 60_000;
/** At most this many events in one call (a page's beacon sends a handful). */
export const MAX_EVENTS = 1000;

/** The stored fields of an event, by short name (a batch's column keys). */
export const FIELDS = [
  'url',
  'section',
  'siteSpace',
  'shareKey',
  'space',
  'revision',
  'page',
  'display',
  'visitor',
  'session',
  'language',
  'referrer',
  'device',
  'browser',
  'os',
  'bot',
  'claims',
  'query',
  'result',
  'rating',
  'comment',
  'askRating',
  'responseId',
  'linkTarget',
  'linkPosition',
  'apiPath',
  'apiMethod',
  'adDomain',
  'adPlacement',
  'trademark',
  // agent_feedback: where it came from (mcp, assistant, api), what it is about (the subject as
  // JSON), its category and severity, the agent's model.
  'agentSource',
  'agentSubject',
  'agentCategory',
  'agentSeverity',
  'agentModel',
] as const;
export type Field = (typeof FIELDS)[number];
export type { InsightBatchRecord };
export type EventValues = Partial<Record<Field, string | null>>;

/** One stored event before it is packed: its time (ms), type and fields. */
export interface InsightEvent {
  ts: number;
  type: EventType;
  values: EventValues;
}

/** Packs events into one batch row (columns and a dictionary). */
export function packBatch(site: SiteRecord, events: InsightEvent[], id: string, now: Date): InsightBatchRecord {
  const dict: string[] = [];
  const at = new Map<string, number>();
  const intern = (s: string | null | undefined) => {
    if (s === null || s === undefined) return -1;
    let i = at.get(s);
    if (i === undefined) {
      i = dict.length;
      dict.push(s);
      at.set(s, i);
    }
    return i;
  };
  const t0 = events.reduce((m, e) => Math.min(m, e.ts), Number.POSITIVE_INFINITY);
  const cols: Partial<Record<Field, number[]>> = {};
  for (const f of FIELDS) {
    if (!events.some((e) => e.values[f] !== undefined && e.values[f] !== null)) continue;
    cols[f] = events.map((e) => intern(e.values[f]));
  }
  return {
    id,
    site: site.id,
    organization: site.organization,
    createdAt: now.toISOString(),
    t0,
    dt: events.map((e) => e.ts - t0),
    type: events.map((e) => TYPE_INDEX.get(e.type)!),
    dict,
    cols,
  };
}

// ---- From a visitor's browser to fields -------------------------------------------------------

/** The device, browser, OS and crawler a User-Agent names (the enums of both specs). */
export function parseUserAgent(ua: string | undefined): { device: string; browser: string; os: string; bot: string | null } {
  const u = ua ?? '';
  const bot = /googlebot/i.test(u)
    ? 'googlebot'
    : /bingbot/i.test(u)
      ? 'bingbot'
      : /duckduckbot/i.test(u)
        ? 'duckduckbot'
        : /facebookexternalhit|facebookbot/i.test(u)
          ? 'facebookbot'
          : /applebot/i.test(u)
            ? 'applebot'
            : /chatgpt|gptbot|oai-searchbot/i.test(u)
              ? 'chatgpt'
              : /claude|anthropic/i.test(u)
                ? 'anthropic'
                : /bot|crawler|spider|curl|wget|python-requests|node-fetch|undici/i.test(u) || !u
                  ? 'unknown'
                  : null;
  const os = /windows/i.test(u)
    ? 'windows'
    : /iphone|ipad|ipod/i.test(u)
      ? 'ios'
      : /android/i.test(u)
        ? 'android'
        : /mac os x|macintosh/i.test(u)
          ? 'macos'
          : /linux|x11/i.test(u)
            ? 'linux'
            : 'unknown';
  const browser = /edg\//i.test(u)
    ? 'edge'
    : /opr\/|opera/i.test(u)
      ? 'opera'
      : /firefox|fxios/i.test(u)
        ? 'firefox'
        : /chrome|crios|chromium/i.test(u)
          ? 'chrome'
          : /msie|trident/i.test(u)
            ? 'ie'
            : /safari/i.test(u)
              ? 'safari'
              : 'unknown';
  const device = !u || bot ? 'unknown' : /ipad|tablet/i.test(u) ? 'tablet' : /mobi|iphone|android/i.test(u) ? 'mobile' : 'desktop';
  return { device, browser, os, bot };
}

/**
 * The contract's event (SiteInsightsEvent, validated against the spec) as stored, or a 400 naming
 * the field: a type this server does not store, a time outside the tolerance, a site space,
 * section or space that is not the site's.
 */
export function eventFromApi(tx: ReadTx, site: SiteRecord, e: any, i: number, now: number, fallbackUa?: string): InsightEvent {
  const at = `events[${i}]`;
  if (!TYPE_INDEX.has(e?.type)) throw invalid(`${at}.type: unknown event type ${JSON.stringify(e?.type)} (known: ${EVENT_TYPES.join(', ')})`);
  let ts = now;
  if (e.timestamp !== undefined) {
    ts = Date.parse(e.timestamp);
    if (Number.isNaN(ts)) throw invalid(`${at}.timestamp: not a date-time: ${JSON.stringify(e.timestamp)}`);
    if (ts > now + TIMESTAMP_TOLERANCE_MS) throw invalid(`${at}.timestamp: ${e.timestamp} is in the future (more than 5 minutes ahead of this server's clock)`);
    if (ts < now - TIMESTAMP_TOLERANCE_MS) throw invalid(`${at}.timestamp: ${e.timestamp} is more than 5 minutes old (events are recorded as they happen)`);
  }
  const loc = e.location ?? {};
  const session = e.session ?? {};
  const ssId = loc.siteSpace ?? null;
  if (ssId !== null) {
    const ss = tx.get(SiteSpaces, ssId);
    if (!ss || ss.site !== site.id) throw invalid(`${at}.location.siteSpace: ${ssId} is not a site space of site ${site.id}`);
    if (loc.space && loc.space !== ss.space) throw invalid(`${at}.location.space: ${loc.space} is not the space of site space ${ssId}`);
  }
  if (loc.siteSection) {
    const sec = tx.get(SiteSections, loc.siteSection);
    if (!sec || sec.site !== site.id) throw invalid(`${at}.location.siteSection: ${loc.siteSection} is not a section of site ${site.id}`);
  }
  if (loc.space && ssId === null && !tx.find(SiteSpaces, 'space', loc.space).some((x) => x.site === site.id))
    throw invalid(`${at}.location.space: space ${loc.space} is not in site ${site.id}`);
  const ua = parseUserAgent(session.userAgent ?? fallbackUa);
  const claims = session.visitorAuthClaims && Object.keys(session.visitorAuthClaims).length ? JSON.stringify(session.visitorAuthClaims) : null;
  const values: EventValues = {
    url: loc.url ?? null,
    section: loc.siteSection ?? null,
    siteSpace: ssId,
    shareKey: loc.siteShareKey ?? null,
    space: loc.space ?? null,
    revision: loc.revision ?? null,
    page: loc.page ?? null,
    display: loc.displayContext === 'embed' ? 'embed' : null,
    visitor: String(session.visitorId ?? ''),
    session: String(session.sessionId ?? ''),
    language: session.language ?? null,
    referrer: typeof session.referrer === 'string' && session.referrer ? session.referrer : null,
    device: ua.device,
    browser: ua.browser,
    os: ua.os,
    bot: ua.bot,
    claims,
  };
  switch (e.type as EventType) {
    case 'search_type_query':
    case 'ask_question':
      values.query = String(e.query);
      break;
    case 'search_open_result':
      values.query = String(e.query);
      values.result = JSON.stringify(e.result);
      break;
    case 'page_post_feedback':
      values.rating = e.feedback.rating;
      break;
    case 'page_post_feedback_comment':
      values.rating = e.feedback.rating;
      values.comment = e.feedback.comment;
      break;
    case 'ask_rate_response':
      values.query = String(e.query);
      values.askRating = String(e.rating);
      values.responseId = String(e.responseId);
      break;
    case 'link_click':
      values.linkTarget = JSON.stringify(e.link.target);
      values.linkPosition = e.link.position;
      break;
    case 'api_client_open':
    case 'api_client_request':
      values.apiPath = e.operation.path;
      values.apiMethod = String(e.operation.method).toUpperCase();
      break;
    case 'ad_click':
    case 'ad_display':
      values.adDomain = e.ad.domain;
      values.adPlacement = e.ad.placement;
      break;
    case 'trademark_click':
      values.trademark = e.placement;
      break;
  }
  return { ts, type: e.type, values };
}

let seq = 0;
/** A new batch id: the site first (its shard), then time order. */
export function batchId(site: string, now: Date): string {
  seq = (seq + 1) % 1_000_000;
  return `${site}:${now.getTime().toString(36)}-${seq.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Stores events as one batch (nothing stored for none), counted in the site's rollups in the same write. */
export function recordEvents(tx: WriteTx, site: SiteRecord, events: InsightEvent[], now: Date): InsightBatchRecord | undefined {
  if (events.length === 0) return undefined;
  const batch = packBatch(site, events, batchId(site.id, now), now);
  rollUp(tx, site, batch, () => batchesOf(tx, site.id));
  return tx.put(SiteInsightBatches, batch);
}

/** Every batch of a site. */
export const batchesOf = (tx: ReadTx, siteId: string) => tx.find(SiteInsightBatches, 'site', siteId);

/** Removes a site's events (the site is deleted). */
export function deleteEventsOf(tx: WriteTx, siteId: string): number {
  const all = batchesOf(tx, siteId);
  for (const b of all) tx.delete(SiteInsightBatches, b.id);
  deleteRollupsOf(tx, siteId);
  return all.length;
}
