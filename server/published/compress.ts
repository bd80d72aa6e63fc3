import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

// Compression of the published sites' answers (pages, the site script, search, llms.txt, the
// app's views): brotli or gzip as the request's Accept-Encoding asks, with `Vary: Accept-Encoding`
// and an ETag per representation. See docs/manual/published-sites.md#compression.
//
// - Only text (HTML, CSS, JavaScript, JSON, XML, Markdown, SVG) of at least MIN_BYTES: a smaller
//   body saves less than the header costs, and images (PNG, JPEG, WebP, ...) are compressed already.
// - The compressed bytes of a body are kept with the body (a WeakMap keyed by its Buffer): a page
//   served from the page cache (src/published/render/cache.ts) is compressed once per coding, and
//   its compressed bytes leave when the page leaves the cache. Concurrent requests share one job.
// - Compression runs on libuv's thread pool (zlib's async API): the event loop keeps serving.
// - The ETag is the identity bytes' hash; a compressed representation's adds `-br` / `-gzip`
//   (strong ETags name exact bytes). If-None-Match with the chosen representation's ETag is a 304.

export type Coding = 'br' | 'gzip';

export const MIN_BYTES = 1024;
const TEXT = /^(text\/|application\/(json|xml|javascript|ld\+json|manifest\+json)|image\/svg\+xml)/i;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Whether a body of this type and size is worth compressing. */
export const compressible = (type: string, length: number) => length >= MIN_BYTES && TEXT.test(type);

/**
 * The coding to answer with for an Accept-Encoding header: the acceptable one (q > 0) with the
 * highest q, brotli on a tie; undefined for identity. `*` stands for any coding not named.
 */
export function negotiate(header: string | string[] | undefined): Coding | undefined {
  if (!header) return undefined;
  // Browsers send the same few headers: the answer for a header string is kept (bounded).
  if (typeof header === 'string') {
    const hit = negotiated.get(header);
    if (hit !== undefined) return hit || undefined;
    const got = parseAccept(header);
    if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
    negotiated.set(header, got ?? '');
    return got;
  }
  return parseAccept(header);
}

const negotiated = new Map<string, Coding | ''>();
const NEGOTIATED_MAX = 256;

function parseAccept(header: string | string[]): Coding | undefined {
  const q: Record<string, number> = {};
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let value = 1;
    for (const p of params) {
      // A malformed q-value counts as 0: that coding is not used.
      const m = /^\s*q\s*=(.*)$/.exec(p);
      if (m) value = /^\s*[01](\.\d{0,3})?\s*$/.test(m[1]!) ? Math.min(1, Number(m[1])) : 0;
    }
    q[name === 'x-gzip' ? 'gzip' : name] = value;
  }
  const of = (c: Coding) => q[c] ?? q['*'] ?? 0;
  const br = of('br');
  const gzipQ = of('gzip');
  if (br <= 0 && gzipQ <= 0) return undefined;
  return br >= gzipQ ? 'br' : 'gzip';
}

interface Variants {
  etag: string;
  br?: Promise<Buffer>;
  gzip?: Promise<Buffer>;
  /** The compressed bytes once ready (a cached page's later requests answer without awaiting). */
  done: { br?: Buffer; gzip?: Buffer };
  /** The quoted ETag of each representation ('' for identity). */
  etags: Record<Coding | '', string>;
  /**
   * The 200's headers as sent, by the caller's headers object and the coding: a caller that
   * passes the same (frozen) object for a cached page gets them built once.
   */
  heads: WeakMap<object, Partial<Record<Coding | '', Record<string, string | number | string[]>>>>;
}
const variants = new WeakMap<Buffer, Variants>();

/** Statistics for tests: how many times a body was compressed (not served from the kept bytes). */
export const compressStats = { br: 0, gzip: 0 };

function variantsOf(body: Buffer): Variants {
  let v = variants.get(body);
  if (!v) {
    const etag = createHash('sha256').update(body).digest('base64url').slice(0, 22);
    variants.set(body, (v = { etag, done: {}, etags: { '': `"${etag}"`, br: `"${etag}-br"`, gzip: `"${etag}-gzip"` }, heads: new WeakMap() }));
  }
  return v;
}

/** The body in a coding, compressed once per Buffer. Brotli at quality 5: near 11's size, at gzip's speed. */
export function encoded(body: Buffer, coding: Coding): Promise<Buffer> {
  const v = variantsOf(body);
  const kept = v[coding];
  if (kept) return kept;
  compressStats[coding]++;
  const job =
    coding === 'br'
      ? brotli(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 5,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        })
      : gz(body, { level: 6 });
  v[coding] = job;
  job.then(
    (bytes) => (v.done[coding] = bytes),
    () => (v[coding] = undefined),
  );
  return job;
}

const etagOf = (body: Buffer, coding?: Coding) => variantsOf(body).etags[coding ?? ''];

/** Whether If-None-Match names this ETag (weak comparison, as RFC 9110 asks for GET). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/**
 * Sends a 200's body (or any status's) compressed as the request accepts. A 200 of a text body
 * gets an ETag and answers If-None-Match with a 304. Returns the status sent.
 */
export async function sendBody(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string | number | string[]>,
  body: Buffer,
): Promise<number> {
  const type = String(headers['content-type'] ?? '');
  if (!compressible(type, body.length)) {
    res.writeHead(status, { ...headers, 'content-length': body.length });
    res.end(body);
    return status;
  }
  const coding = negotiate(req.headers['accept-encoding']);
  const etag = status === 200 ? etagOf(body, coding) : undefined;
  const common = { vary: 'Accept-Encoding', ...(etag ? { etag } : {}) };
  if (etag && matches(req.headers['if-none-match'], etag)) {
    const keep = Object.fromEntries(
      Object.entries(headers).filter(([k]) => /^(cache-control|content-location|date|expires|content-security-policy)$/i.test(k)),
    );
    res.writeHead(304, { ...keep, ...common });
    res.end();
    return 304;
  }
  // Bytes compressed already (a cached page) are sent in this turn; others wait for their job.
  const v = variantsOf(body);
  const bytes = coding ? (v.done[coding] ?? (await encoded(body, coding))) : body;
  const build = () => ({
    ...headers,
    ...common,
    ...(coding ? { 'content-encoding': coding } : {}),
    'content-length': bytes.length,
  });
  let head: Record<string, string | number | string[]>;
  if (status === 200 && Object.isFrozen(headers)) {
    let byCoding = v.heads.get(headers);
    if (!byCoding) v.heads.set(headers, (byCoding = {}));
    head = byCoding[coding ?? ''] ??= build();
  } else head = build();
  res.writeHead(status, head);
  res.end(bytes);
  return status;
}
