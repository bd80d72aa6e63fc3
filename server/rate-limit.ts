import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, bearer, cachedHash } from '../src/auth/tokens.js';
import type { Caller, Context } from '../src/kernel/context.js';
import { DocsError } from '../src/kernel/errors.js';
import { header } from './body.js';

// Two limits, both in memory and bounded:
// - failed authentications per client address (always on, one limiter for every door that takes
//   a secret: bearer tokens on /v1, /mcp and /_docs, the app's sign-in form and session cookies): a token bucket of FAILURES_PER_SECOND
//   sustained with a burst of FAILURE_BURST. While an address's bucket is empty, a token this
//   server has not yet seen succeed gets 429 without being looked up (guessing stops: a guess is
//   never checked), but a token that did succeed (and the server's session token) keeps working:
//   the failures are limited, not the address's valid requests. A valid token first used from a
//   limited address waits for the limit to lift like a guess would. The same wrong token sent
//   again (a misconfigured client, not a guess) is answered 401 and not counted again.
// - requests per token (`docs serve --rate-limit N`, per minute, off by default): a token bucket
//   of N with N/60 refilled per second, reported in GitBook's X-RateLimit-* headers.

export const FAILURES_PER_SECOND = 10;
export const FAILURE_BURST = 20;
/** Addresses, tokens and known-good tokens tracked at most; the least recently seen is dropped. */
export const MAX_TRACKED = 10_000;

interface Bucket {
  level: number;
  at: number; // ms
}

/** Token buckets by key, capped at `max` keys (Map order = least recently used first). */
export class Buckets {
  private readonly map = new Map<string, Bucket>();
  constructor(
    readonly perSecond: number,
    readonly burst: number,
    private readonly max = MAX_TRACKED,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.map.size;
  }

  /** The bucket of `key` refilled to now (a new key starts full), moved to the recent end. */
  private current(key: string, t: number): Bucket {
    let b = this.map.get(key);
    if (b === undefined) {
      b = { level: this.burst, at: t };
      if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value!);
    } else {
      b.level = Math.min(this.burst, b.level + ((t - b.at) / 1000) * this.perSecond);
      b.at = t;
      this.map.delete(key);
    }
    this.map.set(key, b);
    return b;
  }

  /** Whether `key` has at least one token left, without taking it. */
  has(key: string): boolean {
    const b = this.map.get(key);
    if (b === undefined) return true;
    return Math.min(this.burst, b.level + ((this.now() - b.at) / 1000) * this.perSecond) >= 1;
  }

  /** Takes one token: `remaining` after it, or ok=false and how long until the next one. */
  take(key: string): { ok: boolean; remaining: number; retryAfterMs: number; fullInMs: number } {
    const t = this.now();
    const b = this.current(key, t);
    const ok = b.level >= 1;
    if (ok) b.level -= 1;
    const perMs = this.perSecond / 1000;
    return { ok, remaining: Math.floor(b.level), retryAfterMs: ok ? 0 : (1 - b.level) / perMs, fullInMs: (this.burst - b.level) / perMs };
  }
}

/** A 429 in the contract's error body, with Retry-After (whole seconds, at least 1). */
function tooMany(message: string, retryAfterMs: number, extra: Record<string, string> = {}): DocsError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return Object.assign(new DocsError('rate_limited', `${message}; retry in ${seconds} s`), { headers: { 'retry-after': String(seconds), ...extra } });
}

export interface RateLimitOptions {
  /** Requests per minute per token; undefined or 0: no per-token limit (and no X-RateLimit-* headers). */
  perTokenPerMinute?: number;
  now?: () => number;
}

export class RateLimiter {
  readonly failures: Buckets;
  readonly perToken?: Buckets;
  /** Token hashes that authenticated: they pass while their address is limited for failures. */
  private readonly good = new Set<string>();
  /** Token hashes that failed: sending one again is not a new guess. */
  private readonly bad = new Set<string>();
  private readonly now: () => number;

  constructor(opts: RateLimitOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.failures = new Buckets(FAILURES_PER_SECOND, FAILURE_BURST, MAX_TRACKED, this.now);
    const n = opts.perTokenPerMinute;
    if (n) this.perToken = new Buckets(n / 60, n, MAX_TRACKED, this.now);
  }

  private static remember(set: Set<string>, hash: string) {
    if (set.has(hash)) return;
    if (set.size >= MAX_TRACKED) set.delete(set.values().next().value!);
    set.add(hash);
  }

  /**
   * The one failed-authentication limit, for every secret a client sends: a bearer token (`/v1`,
   * `/mcp`, `/_docs`), a token typed into the app's sign-in form (`POST /o/login`), an app session
   * cookie (`/o`). `check` verifies `secret` and throws `unauthenticated` when it is wrong: that
   * counts against the client's address (once per distinct secret); while the address is
   * limited, a secret not yet seen to succeed is refused with 429 without being checked.
   */
  async checked<T>(ctx: Context, req: IncomingMessage, secret: string, check: () => Promise<T>): Promise<T> {
    const address = req.socket.remoteAddress ?? '';
    const hash = cachedHash(secret);
    if (!this.good.has(hash) && !this.bad.has(hash) && !ctx.sessionTokens.has(hash) && !this.failures.has(address)) {
      throw tooMany('too many failed authentications from this address', this.failures.take(address).retryAfterMs);
    }
    let out: T;
    try {
      out = await check();
    } catch (err) {
      if (err instanceof DocsError && err.kind === 'unauthenticated') {
        this.good.delete(hash); // a revoked token is a stranger again
        if (!this.bad.has(hash)) {
          RateLimiter.remember(this.bad, hash);
          const t = this.failures.take(address);
          if (!t.ok) throw tooMany('too many failed authentications from this address', t.retryAfterMs);
        }
      }
      throw err;
    }
    this.bad.delete(hash);
    RateLimiter.remember(this.good, hash);
    return out;
  }

  /**
   * `authenticate` behind both limits: a 429 (DocsError with `headers`) when the address is limited
   * for failures or the token is over its limit; on success, the X-RateLimit-* headers are set on `res`.
   */
  async authenticate(ctx: Context, req: IncomingMessage, res: ServerResponse): Promise<Caller> {
    const token = bearer(header(req, 'authorization'));
    // No token at all is not a guess: plain 401, nothing counted.
    if (!token) return authenticate(ctx, token);
    const caller = await this.checked(ctx, req, token, () => authenticate(ctx, token));
    if (this.perToken) {
      const t = this.perToken.take(cachedHash(token));
      const headers = {
        'x-ratelimit-limit': String(this.perToken.burst),
        'x-ratelimit-remaining': String(t.remaining),
        // GitBook's meaning: when the limit is whole again, in UTC epoch seconds.
        'x-ratelimit-reset': String(Math.ceil((this.now() + t.fullInMs) / 1000)),
      };
      if (!t.ok) throw tooMany(`rate limit of ${this.perToken.burst} requests per minute for this token exceeded`, t.retryAfterMs, headers);
      for (const k in headers) res.setHeader(k, headers[k as keyof typeof headers]);
    }
    return caller;
  }
}
