import { guardedLookup, loadIpaddr, REFUSED_CODE, refusedLiteral } from '../../src/kernel/outbound-guard.js';

// `docs content check --external`: each distinct http(s) URL the pages link to is asked once
// (HEAD, then GET for a server that refuses HEAD), bounded in count, time and concurrency, through
// the outbound guard (src/kernel/outbound-guard.ts: no loopback, private or link-local address is
// reached unless DOCS_FETCH_ALLOW_PRIVATE=1, every redirect hop checked again). An address the
// guard refuses is not a broken link: it is listed as not checked.

export interface ExternalLink {
  url: string;
  file: string;
  line?: number;
}

export interface ExternalOptions {
  /** Distinct URLs asked at most; the rest are counted as not checked. */
  max: number;
  timeoutMs: number;
  concurrency: number;
  allowPrivate: boolean;
}

/** A content-check.ts Problem of kind broken-external. */
export interface ExternalProblem {
  file: string;
  line?: number;
  kind: 'broken-external';
  message: string;
}

export interface ExternalResult {
  problems: ExternalProblem[];
  /** Distinct URLs asked. */
  checked: number;
  /** URLs not asked, and why (the guard refused the address; over --external-max). */
  skipped: { url: string; why: string }[];
}

export const externalOptions = (max: number, timeoutMs: number, env = process.env): ExternalOptions => ({
  max,
  timeoutMs,
  concurrency: 8,
  allowPrivate: env.DOCS_FETCH_ALLOW_PRIVATE === '1',
});

/** Answers that say the page is there even though it is not shown to us (a login, a rate limit). */
const THERE = new Set([401, 403, 429]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const HINT = 'not checked (private and local addresses are not fetched; DOCS_FETCH_ALLOW_PRIVATE=1 allows them)';

type Outcome = { ok: true } | { ok: false; broken: string } | { ok: false; skipped: string };

export async function checkExternal(links: ExternalLink[], opts: ExternalOptions): Promise<ExternalResult> {
  const byUrl = new Map<string, ExternalLink[]>();
  for (const l of links) {
    const key = l.url.replace(/#.*$/, '');
    byUrl.set(key, [...(byUrl.get(key) ?? []), l]);
  }
  const urls = [...byUrl.keys()];
  const asked = urls.slice(0, opts.max);
  const skipped = urls.slice(opts.max).map((url) => ({ url, why: `not checked: over --external-max ${opts.max}` }));
  const outcomes = new Map<string, Outcome>();
  const ip = await loadIpaddr();
  const { Agent, request } = await import('undici');
  const agent = new Agent({
    connect: { ...(opts.allowPrivate ? {} : { lookup: guardedLookup(ip, HINT) as any }), timeout: opts.timeoutMs },
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
  });

  const probe = async (url: string): Promise<Outcome> => {
    const deadline = AbortSignal.timeout(opts.timeoutMs);
    let current: URL;
    try {
      current = new URL(url);
    } catch {
      return { ok: false, broken: 'not a valid URL' };
    }
    try {
      for (let hop = 0; hop <= 5; hop++) {
        if (current.protocol !== 'http:' && current.protocol !== 'https:') return { ok: false, skipped: `not checked: a redirect to ${current.protocol} URL` };
        if (current.username || current.password) return { ok: false, skipped: 'not checked: a URL with credentials' };
        const literal = opts.allowPrivate ? undefined : refusedLiteral(ip, current);
        if (literal) return { ok: false, skipped: `${current.host}: ${literal}: ${HINT}` };
        let res = await request(current, { method: 'HEAD', dispatcher: agent, signal: deadline, headers: { 'user-agent': 'docs-content-check' } });
        await res.body.dump();
        // A server that does not answer HEAD (405, 501, some 400s and 404s of frameworks): GET, body dropped.
        if (res.statusCode === 405 || res.statusCode === 501 || res.statusCode === 404 || res.statusCode === 400) {
          res = await request(current, { method: 'GET', dispatcher: agent, signal: deadline, headers: { 'user-agent': 'docs-content-check' } });
          res.body.on('error', () => {});
          res.body.destroy();
        }
        if (REDIRECTS.has(res.statusCode)) {
          const location = res.headers.location;
          if (typeof location !== 'string') return { ok: false, broken: `HTTP ${res.statusCode} redirect without a Location` };
          current = new URL(location, current);
          continue;
        }
        if ((res.statusCode >= 200 && res.statusCode < 300) || THERE.has(res.statusCode)) return { ok: true };
        return { ok: false, broken: `HTTP ${res.statusCode}${current.href === url ? '' : ` at ${current.href}`}` };
      }
      return { ok: false, broken: 'more than 5 redirects' };
    } catch (err) {
      const e = err as Error & { code?: string; cause?: any };
      if (e.code === REFUSED_CODE || e.cause?.code === REFUSED_CODE) return { ok: false, skipped: e.cause?.message ?? e.message };
      if (deadline.aborted || /TIMEOUT/.test(String(e.code ?? e.cause?.code))) return { ok: false, broken: `no answer within ${opts.timeoutMs} ms` };
      return { ok: false, broken: String(e.cause?.code ?? e.cause?.message ?? e.code ?? e.message) };
    }
  };

  try {
    let next = 0;
    const worker = async () => {
      while (next < asked.length) {
        const url = asked[next++]!;
        outcomes.set(url, await probe(url));
      }
    };
    await Promise.all(Array.from({ length: Math.min(opts.concurrency, asked.length) }, worker));
  } finally {
    agent.destroy().catch(() => {});
  }

  const problems: ExternalProblem[] = [];
  for (const url of asked) {
    const o = outcomes.get(url)!;
    if ('skipped' in o) skipped.push({ url, why: o.skipped });
    else if ('broken' in o)
      for (const l of byUrl.get(url)!)
        problems.push({ file: l.file, ...(l.line ? { line: l.line } : {}), kind: 'broken-external', message: `broken external link ${l.url}: ${o.broken}` });
  }
  return { problems, checked: asked.length, skipped };
}
