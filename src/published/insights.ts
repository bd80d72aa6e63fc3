import { createHash, randomBytes } from 'node:crypto';
import { invalid } from '../kernel/errors.js';
import type { Context } from '../kernel/context.js';
import { eventFromApi, type InsightEvent, recordEvents } from '../sites/insights.js';
import { SiteShareLinks, Sites } from '../sites/tables.js';
import { firstPage, pageVisible, spacePages } from '../urls/site/pages.js';
import { locate, siteView, type SiteRef } from '../urls/site/site.js';
import type { Visitor } from '../urls/site/visitor.js';
import { siteSegments } from '../urls/site/open.js';

// The published site's own insights beacon (docs/manual/insights.md#the-published-site-records-its-own-events):
// the site's script posts what happened on a page (a view, a search, feedback, a link followed)
// to `<site>/~/events` on the site's own origin. No cookie is set or read for it, and nothing
// leaves for a third party. Who the visitor is: a hash of the day's secret salt (random, kept in
// memory, a new one each UTC day), the site, the address and the User-Agent, so one visitor is
// counted once a day and cannot be followed from one day to the next or turned back into an
// address; their session: the same visitor with less than 30 minutes between two events.

/** The event types the site's script sends. */
export const BEACON_TYPES = ['page_view', 'search_type_query', 'page_post_feedback', 'page_post_feedback_comment', 'link_click'] as const;
/** At most this many events in one post (the script sends one or two). */
export const MAX_BEACON_EVENTS = 20;
const SESSION_IDLE_MS = 30 * 60_000;
const MAX_SESSIONS = 100_000;
const POSITIONS = new Set(['announcement', 'header', 'footer', 'sidebar', 'content']);
const RATINGS = new Set(['bad', 'ok', 'good']);

let salt: { day: number; bytes: Buffer } | undefined;
const sessions = new Map<string, { id: string; last: number }>();

/** The visitor and session ids of a request (see above). */
export function visitorOf(siteId: string, address: string, userAgent: string, now: number): { visitorId: string; sessionId: string } {
  const day = Math.floor(now / 86_400_000);
  if (salt?.day !== day) {
    salt = { day, bytes: randomBytes(32) };
    sessions.clear();
  }
  const visitorId = createHash('sha256').update(salt.bytes).update(`${siteId}\0${address}\0${userAgent}`).digest('base64url').slice(0, 22);
  let s = sessions.get(visitorId);
  if (!s || now - s.last > SESSION_IDLE_MS) {
    s = { id: randomBytes(12).toString('base64url'), last: now };
    if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
  }
  s.last = now;
  sessions.delete(visitorId);
  sessions.set(visitorId, s); // the most recent last: the first key is the least recently seen
  return { visitorId, sessionId: s.id };
}

export interface BeaconRequest {
  ref: SiteRef;
  visitor: Visitor;
  /** The request's body: `{events: [{type, url, referrer?, query?, rating?, comment?, href?, position?}]}`. */
  body: unknown;
  address: string;
  userAgent: string;
  language: string | null;
}

const str = (v: unknown, field: string, max = 2048): string => {
  if (typeof v !== 'string' || v.length > max) throw invalid(`${field}: a string of at most ${max} characters is required`);
  return v;
};

/**
 * The beacon's events as the contract's events (SiteInsightsEvent), their page found from their
 * URL as the site resolves it: a URL the site has no page at is a page view of no page (a 404).
 * 400 naming the field for anything else.
 */
export function beaconEvents(tx: Parameters<typeof siteView>[0], _ctx: Context, b: BeaconRequest, now: number): InsightEvent[] {
  const body = b.body as { events?: unknown };
  if (!body || typeof body !== 'object' || !Array.isArray(body.events)) throw invalid('events: an array of events is required');
  if (body.events.length === 0 || body.events.length > MAX_BEACON_EVENTS) throw invalid(`events: 1 to ${MAX_BEACON_EVENTS} events are accepted`);
  const site = tx.get(Sites, b.ref.site.id)!;
  const view = siteView(tx, b.ref, b.visitor);
  const shareLink = b.visitor.shareKey ? tx.find(SiteShareLinks, 'key', b.visitor.shareKey)[0] : undefined;
  const { visitorId, sessionId } = visitorOf(site.id, b.address, b.userAgent, now);
  return body.events.map((raw, i) => {
    const at = `events[${i}]`;
    const e = (raw ?? {}) as Record<string, unknown>;
    if (!(BEACON_TYPES as readonly string[]).includes(e.type as string))
      throw invalid(`${at}.type: unknown event type ${JSON.stringify(e.type)} (the site sends ${BEACON_TYPES.join(', ')})`);
    const url = str(e.url, `${at}.url`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw invalid(`${at}.url: not a URL`);
    }
    const segs = siteSegments(parsed.pathname);
    const base = siteSegments(b.ref.base);
    if (!segs || !base || segs[0] !== base[0] || segs[1] !== base[1]) throw invalid(`${at}.url: not a page of this site`);
    const rest = segs.slice(2).map((s) => (s.endsWith('.md') ? s.slice(0, -3) : s));
    // Where the URL leads, as the site resolves it: a section, a site space, a page of it.
    let siteSection: string | null = null;
    let siteSpace: string | null = null;
    let space: string | null = null;
    let revision: string | null = null;
    let page: string | null = null;
    if (rest[0] !== '~') {
      const l = locate(view, rest);
      if (l.kind === 'space') {
        siteSection = l.entry.section.row?.id ?? null;
        siteSpace = l.entry.ss.id;
        space = l.entry.space.id;
        const ix = spacePages(tx, l.entry.space);
        revision = ix.rev?.id ?? null;
        const path = l.rest.join('/');
        const found = path ? ix.byPath.get(path) : firstPage(ix, b.visitor);
        if (found && pageVisible(ix, found, b.visitor)) page = found.node.id;
      }
    }
    const referrer = typeof e.referrer === 'string' && /^https?:\/\//.test(e.referrer) ? e.referrer.slice(0, 2048) : null;
    const event: Record<string, unknown> = {
      type: e.type,
      session: {
        visitorId,
        sessionId,
        cookies: {},
        userAgent: b.userAgent,
        language: b.language,
        referrer,
        ...(Object.keys(b.visitor.claims).length ? { visitorAuthClaims: b.visitor.claims } : {}),
      },
      location: { url, siteSection, siteSpace, siteShareKey: shareLink?.id ?? null, space, revision, page },
    };
    switch (e.type) {
      case 'search_type_query':
        event.query = str(e.query, `${at}.query`, 512);
        break;
      case 'page_post_feedback':
      case 'page_post_feedback_comment':
        if (!RATINGS.has(e.rating as string)) throw invalid(`${at}.rating: must be one of bad, ok, good`);
        event.feedback = { rating: e.rating, ...(e.type === 'page_post_feedback_comment' ? { comment: str(e.comment, `${at}.comment`, 512) } : {}) };
        if (e.type === 'page_post_feedback_comment' && !(event.feedback as any).comment) throw invalid(`${at}.comment: must not be empty`);
        break;
      case 'link_click': {
        const href = str(e.href, `${at}.href`);
        if (!/^https?:\/\//.test(href)) throw invalid(`${at}.href: an http(s) URL is required`);
        if (!POSITIONS.has(e.position as string)) throw invalid(`${at}.position: must be one of ${[...POSITIONS].join(', ')}`);
        event.link = { target: { kind: 'url', url: href }, position: e.position };
        break;
      }
    }
    return eventFromApi(tx, site, event, i, now, b.userAgent);
  });
}

/**
 * Beacon events are written in batches: those arriving within BATCH_MS of each other (or
 * BATCH_MAX of them) are one row and one commit, and each post is answered once its batch is
 * durable. A busy site writes a few rows a second, not one per page view.
 */
const BATCH_MS = 200;
const BATCH_MAX = 2000;
const pending = new Map<string, { events: InsightEvent[]; done: Promise<void>; flush: () => void }>();

export function queueEvents(ctx: Context, siteId: string, events: InsightEvent[]): Promise<void> {
  let q = pending.get(siteId);
  if (!q) {
    let flush!: () => void;
    const started = new Promise<void>((resolve) => (flush = resolve));
    const entry = { events: [] as InsightEvent[], flush, done: Promise.resolve() };
    const timer = setTimeout(() => entry.flush(), BATCH_MS);
    timer.unref?.();
    entry.done = started.then(async () => {
      clearTimeout(timer);
      if (pending.get(siteId) === entry) pending.delete(siteId);
      await ctx.store.write((tx) => {
        const site = tx.get(Sites, siteId);
        if (site) recordEvents(tx, site, entry.events, ctx.clock.now());
      });
    });
    q = entry;
    pending.set(siteId, q);
  }
  q.events.push(...events);
  if (q.events.length >= BATCH_MAX) q.flush();
  return q.done;
}
