import type { IncomingMessage, ServerResponse } from 'node:http';

// Cross-origin requests get no CORS headers (so a browser keeps other origins' pages from reading
// answers) unless their Origin was given with `docs serve --cors ORIGIN`. For those origins only:
// a preflight is answered 204 before authentication (browsers send it without credentials), and
// every actual answer carries Access-Control-Allow-Origin for that origin, with Vary: Origin.

const METHODS = 'GET, POST, PUT, PATCH, DELETE';
const HEADERS = 'Authorization, Content-Type';
/** Rate-limit headers and Retry-After are readable by the page too. */
const EXPOSED = 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset';
const MAX_AGE = '600';

/** An origin as browsers send it (scheme://host[:port]), or undefined when `value` is not one. */
export function normalOrigin(value: string): string | undefined {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    if (u.pathname !== '/' || u.search || u.hash || u.username || u.password) return undefined;
    return u.origin; // lower-case, default port dropped: as browsers send it
  } catch {
    return undefined;
  }
}

/**
 * Returns true when it answered a preflight (nothing else to do), else sets the CORS headers of an
 * allowed origin on `res` for the answer to come. Does nothing when no origin was allowed.
 */
export function corsHandler(origins: readonly string[]): ((req: IncomingMessage, res: ServerResponse) => boolean) | undefined {
  if (origins.length === 0) return undefined;
  const allowed = new Set(origins);
  return (req, res) => {
    const origin = req.headers.origin;
    if (origin === undefined) return false;
    // Caches must not hand one origin's answer (with or without the header) to another.
    res.setHeader('vary', 'Origin');
    if (!allowed.has(origin)) return false;
    res.setHeader('access-control-allow-origin', origin);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      res.writeHead(204, {
        'access-control-allow-methods': METHODS,
        'access-control-allow-headers': HEADERS,
        'access-control-max-age': MAX_AGE,
        'content-length': 0,
      });
      res.end();
      return true;
    }
    res.setHeader('access-control-expose-headers', EXPOSED);
    return false;
  };
}
