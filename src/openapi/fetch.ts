import { guardedLookup, loadIpaddr, REFUSED_CODE, refusedLiteral, type Ipaddr } from '../kernel/outbound-guard.js';

export { refusedAddress } from '../kernel/outbound-guard.js';

// Fetching a spec's URL from the server is where a request could be turned against the host or
// its network (SSRF). The guard: only http and https; every address the host name resolves to
// must be a public unicast address, every form of it normalized first, checked in the
// connection's own DNS lookup so a second answer cannot differ from the checked one (the guard:
// src/kernel/outbound-guard.ts); at most 5 redirects, each target checked again like the
// first; one deadline for the whole fetch (redirects included); a cap on the bytes read.
// DOCS_FETCH_ALLOW_PRIVATE=1 lifts the address check (a server fetching from its own network,
// tests against a fixture server on 127.0.0.1); the other limits always apply.

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  allowPrivate: boolean;
}

export function fetchLimits(env = process.env): FetchLimits {
  const num = (v: string | undefined, d: number) => (v && Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : d);
  return {
    timeoutMs: num(env.DOCS_FETCH_TIMEOUT_MS, 10_000),
    maxBytes: num(env.DOCS_FETCH_MAX_BYTES, 16 * 1024 * 1024),
    maxRedirects: 5,
    allowPrivate: env.DOCS_FETCH_ALLOW_PRIVATE === '1',
  };
}

/**
 * A fetch that did not produce a document, with the spec's error code; `status` when the answer
 * was a non-2xx HTTP status, `refused` when the address or URL was refused before any request
 * (a caller that tells its user who can fix it: src/site-context/connectors/website.ts).
 */
export class FetchFailure extends Error {
  constructor(
    readonly code: 'FETCH_TIMEOUT' | 'FETCH_ERROR',
    message: string,
    readonly detail: { status?: number; refused?: boolean } = {},
  ) {
    super(message);
  }
}

const REFUSED_HINT = 'refused (private and local addresses are not fetched; DOCS_FETCH_ALLOW_PRIVATE=1 allows them)';

function checkUrl(ip: Ipaddr, url: URL, allowPrivate: boolean): void {
  const refused = { refused: true };
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FetchFailure('FETCH_ERROR', `${url.href}: only http and https URLs are fetched`, refused);
  if (url.username || url.password) throw new FetchFailure('FETCH_ERROR', `${url.origin}: URLs with credentials are not fetched`, refused);
  // An IP literal is connected to without a DNS lookup: check it here.
  const why = allowPrivate ? undefined : refusedLiteral(ip, url);
  if (why) throw new FetchFailure('FETCH_ERROR', `${url.host}: ${why}: ${REFUSED_HINT}`, refused);
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** GETs `url` within the limits; resolves with its text and the final URL (after redirects). */
export async function guardedFetch(url: string, opts: { limits?: FetchLimits; signal?: AbortSignal } = {}): Promise<{ text: string; url: string }> {
  const r = await guardedFetchBytes(url, opts);
  return { text: r.bytes.toString('utf8'), url: r.url };
}

/** The same, for bytes (file uploads by URL): the body, the final URL and its content type. */
export async function guardedFetchBytes(
  url: string,
  opts: { limits?: FetchLimits; signal?: AbortSignal; accept?: string; userAgent?: string } = {},
): Promise<{ bytes: Buffer; url: string; contentType?: string }> {
  const limits = opts.limits ?? fetchLimits();
  const ip = await loadIpaddr();
  const { Agent, request } = await import('undici');
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;
  const agent = new Agent({
    connect: { ...(limits.allowPrivate ? {} : { lookup: guardedLookup(ip, REFUSED_HINT) as any }), timeout: limits.timeoutMs },
    headersTimeout: limits.timeoutMs,
    bodyTimeout: limits.timeoutMs,
  });
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    throw new FetchFailure('FETCH_ERROR', `${url}: not a valid URL`, { refused: true });
  }
  try {
    for (let hop = 0; ; hop++) {
      checkUrl(ip, current, limits.allowPrivate);
      const res = await request(current, {
        method: 'GET',
        dispatcher: agent,
        signal,
        headers: {
          accept: opts.accept ?? 'application/json, application/yaml, text/yaml, */*;q=0.5',
          'user-agent': opts.userAgent ?? 'docs-openapi-fetch',
        },
      });
      if (REDIRECTS.has(res.statusCode)) {
        await res.body.dump();
        const location = res.headers.location;
        if (typeof location !== 'string') throw new FetchFailure('FETCH_ERROR', `${current.href}: HTTP ${res.statusCode} redirect without a Location`);
        if (hop >= limits.maxRedirects) throw new FetchFailure('FETCH_ERROR', `${url}: more than ${limits.maxRedirects} redirects`);
        current = new URL(location, current);
        continue;
      }
      if (res.statusCode < 200 || res.statusCode > 299) {
        await res.body.dump();
        throw new FetchFailure('FETCH_ERROR', `${current.href}: HTTP ${res.statusCode}`, { status: res.statusCode });
      }
      // Cutting a body short makes the stream emit an abort error: nobody is waiting for it.
      res.body.on('error', () => {});
      const declared = Number(res.headers['content-length'] ?? NaN);
      const tooLarge = () => new FetchFailure('FETCH_ERROR', `${current.href}: larger than the limit of ${limits.maxBytes} bytes`);
      if (declared > limits.maxBytes) {
        res.body.destroy();
        throw tooLarge();
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += chunk.length;
        if (size > limits.maxBytes) {
          res.body.destroy();
          throw tooLarge();
        }
        chunks.push(chunk);
      }
      const type = res.headers['content-type'];
      return { bytes: Buffer.concat(chunks), url: current.href, ...(typeof type === 'string' ? { contentType: type.split(';')[0]!.trim() } : {}) };
    }
  } catch (err) {
    if (err instanceof FetchFailure) throw err;
    if (deadline.aborted) throw new FetchFailure('FETCH_TIMEOUT', `${current.href}: no complete answer within ${limits.timeoutMs} ms`);
    if (opts.signal?.aborted) throw err; // processing was stopped: not a failure of the spec
    const e = err as Error & { code?: string; cause?: any };
    if (e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT') {
      throw new FetchFailure('FETCH_TIMEOUT', `${current.href}: no complete answer within ${limits.timeoutMs} ms`);
    }
    const cause = e.cause?.message ?? e.message;
    const refused = e.code === REFUSED_CODE || e.cause?.code === REFUSED_CODE;
    throw new FetchFailure('FETCH_ERROR', refused ? cause : `${current.href}: ${cause}`, { refused });
  } finally {
    agent.destroy().catch(() => {});
  }
}
