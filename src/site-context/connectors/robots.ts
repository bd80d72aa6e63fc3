import { createRequire } from 'node:module';
import { FetchFailure, guardedFetchBytes, type FetchLimits } from '../../openapi/fetch.js';

// The site's robots.txt (RFC 9309), read once per crawl through the outbound guard and parsed by
// robots-parser: a page the crawl finds by following links is read only if the rules allow our
// user agent. What the RFC says when there is no usable file: a 4xx (no robots.txt) allows
// everything; a 5xx, a timeout or an unreachable host disallows everything, since the site may be
// telling crawlers to stay away (the named start page is still read: someone asked for it).

/** RFC 9309 §2.5: a crawler must parse at least the first 500 KiB. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

// A CommonJS module whose types declare an ES default export: required as what it is.
const require = createRequire(import.meta.url);
type Parse = typeof import('robots-parser').default;

export type RobotsRule = (url: string) => boolean;

export async function robotsRule(origin: string, userAgent: string, limits: FetchLimits, signal?: AbortSignal): Promise<RobotsRule> {
  const at = `${origin}/robots.txt`;
  let text: string;
  try {
    const got = await guardedFetchBytes(at, {
      limits: { ...limits, maxBytes: ROBOTS_MAX_BYTES },
      accept: 'text/plain',
      userAgent,
      ...(signal ? { signal } : {}),
    });
    text = got.bytes.toString('utf8');
  } catch (err) {
    const status = err instanceof FetchFailure ? err.detail.status : undefined;
    if (status !== undefined && status >= 400 && status < 500) return () => true;
    return () => false;
  }
  const robots = (require('robots-parser') as Parse)(at, text);
  // undefined: another origin than the file's (never asked: the crawl stays on one origin).
  return (url) => robots.isAllowed(url, userAgent) !== false;
}
