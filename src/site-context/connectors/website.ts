import { FetchFailure, fetchLimits, guardedFetchBytes, type FetchLimits } from '../../openapi/fetch.js';
import type { ContextConnectionFailureReason } from '../model.js';
import { MAX_BODY_BYTES, type RecordInput } from '../records.js';
import { readPage } from './html-text.js';
import { robotsRule } from './robots.js';

// builtin:website (docs/manual/site-context.md#connections-and-records): the page the connection
// names and the pages of the same origin it links to, breadth first, each fetched through the
// outbound guard (src/kernel/outbound-guard.ts, by way of src/openapi/fetch.ts: public addresses
// only unless DOCS_FETCH_ALLOW_PRIVATE=1, redirects checked again, a deadline and a byte cap per
// page). Pages found by following links are read only where the site's robots.txt lets our user
// agent in (robots.ts). Bounded: CRAWL.pages pages, CRAWL.concurrency at a time. The outcome is every page's
// record, or one failure with its reason: the caller writes all of it or none of it.

export const CRAWL = { pages: 50, maxBytes: 2 * 1024 * 1024, timeoutMs: 10_000, concurrency: 4 };

export class CrawlFailure extends Error {
  constructor(
    readonly reason: ContextConnectionFailureReason,
    message: string,
  ) {
    super(message);
  }
}

const ACCEPT = 'text/html, application/xhtml+xml, text/plain;q=0.8, text/markdown;q=0.8';
export const USER_AGENT = 'docs-context-website';

function limits(env = process.env): FetchLimits {
  const base = fetchLimits(env);
  return { ...base, maxBytes: CRAWL.maxBytes, timeoutMs: Math.min(base.timeoutMs, CRAWL.timeoutMs) };
}

/** Who can fix a failed fetch: the connection's settings (refused, 4xx), the source (429, 5xx, unreachable). */
export function reasonOf(err: unknown): ContextConnectionFailureReason {
  if (!(err instanceof FetchFailure)) return 'unknown';
  if (err.detail.refused) return 'misconfigured';
  const status = err.detail.status;
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'authentication';
  if (status !== undefined && status < 500) return 'misconfigured';
  return 'upstream_unavailable';
}

/** A page's text cut to what a record holds (at a character, never inside one). */
export function clip(text: string): string {
  if (Buffer.byteLength(text, 'utf8') <= MAX_BODY_BYTES) return text;
  return Buffer.from(text, 'utf8')
    .subarray(0, MAX_BODY_BYTES)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}

/** The page without its fragment: one record per address. */
const pageKey = (u: URL) => {
  const c = new URL(u.href);
  c.hash = '';
  return c.href;
};

interface Page {
  url: string;
  record?: RecordInput;
  links: string[];
}

async function fetchPage(url: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<Page> {
  const got = await guardedFetchBytes(url, { limits: limits(env), accept: ACCEPT, userAgent: USER_AGENT, ...(signal ? { signal } : {}) });
  const type = (got.contentType ?? 'text/html').toLowerCase();
  const text = got.bytes.toString('utf8');
  const final = pageKey(new URL(got.url));
  if (type === 'text/html' || type === 'application/xhtml+xml') {
    const page = readPage(text);
    const title = (page.title ?? new URL(final).pathname).slice(0, 256) || final.slice(0, 256);
    const description = page.description?.slice(0, 512);
    return {
      url: final,
      record: { id: final, type: 'document', title, ...(description ? { description } : {}), body: clip(page.body), url: final },
      links: page.links,
    };
  }
  if (type === 'text/plain' || type === 'text/markdown') {
    const title = (/^#\s+(.+)$/m.exec(text)?.[1]?.trim() || new URL(final).pathname).slice(0, 256);
    return { url: final, record: { id: final, type: 'document', title, body: clip(text), url: final }, links: [] };
  }
  return { url: final, links: [] };
}

/**
 * Reads the site at `start` (always: someone named it), then the pages robots.txt allows: the start page must answer with a page (any failure there fails the
 * crawl); a linked page that answers 404 or another client error is left out (a broken link of the
 * site, not a reason to keep stale records), while a refused address, 429, 5xx or an unreachable
 * host fails the whole crawl. Pages that are not HTML or text are left out.
 */
export async function crawlWebsite(start: string, opts: { env?: NodeJS.ProcessEnv; signal?: AbortSignal } = {}): Promise<RecordInput[]> {
  const env = opts.env ?? process.env;
  const fail = (err: unknown): never => {
    throw new CrawlFailure(reasonOf(err), err instanceof Error ? err.message : String(err));
  };
  const first = await fetchPage(start, env, opts.signal).catch(fail);
  if (!first.record) throw new CrawlFailure('misconfigured', `${first.url}: not an HTML or text page`);
  const origin = new URL(first.url).origin;
  const allowed = await robotsRule(origin, USER_AGENT, limits(env), opts.signal);
  const records = new Map<string, RecordInput>([[first.url, first.record]]);
  const seen = new Set<string>([pageKey(new URL(start)), first.url]);
  const queue: string[] = [];
  const enqueue = (from: string, links: string[]) => {
    for (const href of links) {
      let u: URL;
      try {
        u = new URL(href, from);
      } catch {
        continue;
      }
      if (u.origin !== origin || u.username || u.password) continue;
      const key = pageKey(u);
      if (seen.has(key) || seen.size >= CRAWL.pages * 4 || !allowed(key)) continue;
      seen.add(key);
      queue.push(key);
    }
  };
  enqueue(first.url, first.links);
  let failure: CrawlFailure | undefined;
  const running = new Set<string>();
  const worker = async () => {
    while (!failure && queue.length && records.size + running.size < CRAWL.pages) {
      const url = queue.shift()!;
      running.add(url);
      try {
        const page = await fetchPage(url, env, opts.signal);
        // A redirect may lead elsewhere: only the site's own pages, once each.
        if (page.record && new URL(page.url).origin === origin && allowed(page.url) && !records.has(page.url) && records.size < CRAWL.pages) {
          records.set(page.url, page.record);
          enqueue(page.url, page.links);
        }
      } catch (err) {
        const reason = reasonOf(err);
        const status = err instanceof FetchFailure ? err.detail.status : undefined;
        const broken = reason === 'misconfigured' && status !== undefined;
        if (!broken) failure ??= new CrawlFailure(reason, err instanceof Error ? err.message : String(err));
      } finally {
        running.delete(url);
      }
    }
  };
  // Workers end when the queue is empty; a page still being read may add more, so go again until nothing is left.
  while (!failure && queue.length && records.size < CRAWL.pages) await Promise.all(Array.from({ length: CRAWL.concurrency }, worker));
  if (failure) throw failure;
  return [...records.values()];
}

/** testSiteContextConnection for a website: one guarded GET of its address. */
export async function probeWebsite(url: string, env = process.env): Promise<{ success: boolean; error?: string }> {
  try {
    await guardedFetchBytes(url, { limits: limits(env), accept: ACCEPT, userAgent: USER_AGENT });
    return { success: true };
  } catch (err) {
    return { success: false, error: err instanceof Error ? err.message : String(err) };
  }
}
