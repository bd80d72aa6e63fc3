import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerOf } from '../../src/auth/bootstrap.js';
import { insertToken } from '../../src/auth/tokens.js';
import { serve, type Served } from '../../server/serve.js';
import { Buckets, FAILURE_BURST, MAX_TRACKED } from '../../server/rate-limit.js';

// Rate limiting as the real API does it: failed authentications per client address (a token
// bucket, 429 with the error body and Retry-After) without locking out valid tokens of that
// address, and per-token limits (`docs serve --rate-limit`) in GitBook's X-RateLimit-* headers.

const TOKEN = 'gb_api_rate_limit_owner';
const OTHER = 'gb_api_rate_limit_second';

async function start(rateLimit?: number): Promise<Served> {
  const prev = process.env.DOCS_BOOTSTRAP_TOKEN;
  process.env.DOCS_BOOTSTRAP_TOKEN = TOKEN;
  try {
    const s = await serve({ port: 0, rateLimit });
    const owner = (await ownerOf(s.ctx))!;
    await s.ctx.store.write((tx) => insertToken(tx, OTHER, owner, 'second', new Date()));
    return s;
  } finally {
    if (prev === undefined) delete process.env.DOCS_BOOTSTRAP_TOKEN;
    else process.env.DOCS_BOOTSTRAP_TOKEN = prev;
  }
}

async function get(s: Served, path: string, token?: string) {
  const res = await fetch(s.url + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const randomToken = () => `gb_api_guess_${Math.random().toString(36).slice(2)}`;

describe('failed authentications are limited per address', () => {
  let s: Served;
  beforeAll(async () => (s = await start()));
  afterAll(() => s.close());

  it('a burst of wrong tokens turns into 429s with the error body and Retry-After; valid tokens keep working', async () => {
    // The owner is at work from this address before the guessing starts.
    expect((await get(s, '/v1/user', TOKEN)).status).toBe(200);
    let t0 = performance.now();
    const answers = await Promise.all(Array.from({ length: 80 }, () => get(s, '/v1/user', randomToken())));
    // What refilled (10/s) while the burst was answered, on a loaded machine.
    let refill = Math.ceil(((performance.now() - t0) / 1000) * 10) + 1;
    const counts = { 401: 0, 429: 0 } as Record<number, number>;
    for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
    // The burst allows about FAILURE_BURST (plus what refills meanwhile at 10/s); the rest are refused.
    expect(counts[401]).toBeGreaterThanOrEqual(FAILURE_BURST);
    expect(counts[401]).toBeLessThanOrEqual(FAILURE_BURST + refill);
    expect(counts[429]).toBeGreaterThan(0);
    expect(counts[401]! + counts[429]!).toBe(80);
    const limited = answers.find((a) => a.status === 429)!;
    expect(limited.body).toEqual({ error: { code: 429, message: expect.stringMatching(/too many failed authentications from this address; retry in \d+ s/) } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // While the address is limited: new guesses are refused (each is at most one of the 10/s the
    // bucket refills), the address's valid token is not.
    t0 = performance.now();
    const during = await Promise.all([
      ...Array.from({ length: 10 }, () => get(s, '/v1/user', randomToken())),
      ...Array.from({ length: 10 }, () => get(s, '/v1/user', TOKEN)),
      get(s, '/v1/user', OTHER),
    ]);
    refill = Math.ceil(((performance.now() - t0) / 1000) * 10) + 1;
    expect(during.slice(0, 10).filter((a) => a.status === 401).length).toBeLessThanOrEqual(refill);
    expect(during.slice(10, 20).map((a) => a.status)).toEqual(Array(10).fill(200));
    // (during[20], a valid token first seen now, is not looked up while no failure is left: 429,
    // unless one refilled meanwhile; either way it is not a 401.)
    expect(during[20]!.status).not.toBe(401);
    // MCP shares the limiter: guesses there are refused too.
    const mcpGuess = () =>
      fetch(s.url + '/mcp', {
        method: 'POST',
        headers: { authorization: `Bearer ${randomToken()}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{}',
      });
    t0 = performance.now();
    const mcp = await Promise.all(Array.from({ length: 10 }, mcpGuess));
    refill = Math.ceil(((performance.now() - t0) / 1000) * 10) + 1;
    const refused = mcp.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(Math.min(1, 10 - refill));
    for (const r of refused) expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // So do the /_docs routes (docs tokens ...: where new tokens are minted).
    t0 = performance.now();
    const docsRoutes = await Promise.all(Array.from({ length: 10 }, () => get(s, '/_docs/tokens', randomToken())));
    refill = Math.ceil(((performance.now() - t0) / 1000) * 10) + 1;
    const refusedDocs = docsRoutes.filter((r) => r.status === 429);
    expect(refusedDocs.length).toBeGreaterThanOrEqual(Math.min(1, 10 - refill));
    for (const r of refusedDocs) expect(r.body).toEqual({ error: { code: 429, message: expect.stringMatching(/too many failed authentications/) } });

    // Once the bucket refills (10/s), wrong tokens are plain 401s again.
    await new Promise((r) => setTimeout(r, 1200));
    expect((await get(s, '/v1/user', randomToken())).status).toBe(401);
  });

  it('a missing token or the same wrong token again is not a guess: never limited', async () => {
    const answers = await Promise.all([
      ...Array.from({ length: 60 }, () => get(s, '/v1/user')),
      ...Array.from({ length: 60 }, () => get(s, '/v1/user', 'gb_api_misconfigured')),
    ]);
    expect(answers.map((a) => a.status)).toEqual(Array(120).fill(401));
  });

  it('no per-token limit by default: no X-RateLimit-* headers', async () => {
    const a = await get(s, '/v1/user', TOKEN);
    expect(a.status).toBe(200);
    expect(a.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('docs serve --rate-limit N: requests per minute per token', () => {
  let s: Served;
  beforeAll(async () => (s = await start(30)));
  afterAll(() => s.close());

  it("every authenticated answer carries GitBook's headers; past N, 429 with Retry-After; other tokens unaffected", async () => {
    const before = Math.floor(Date.now() / 1000);
    const remaining: number[] = [];
    for (let i = 0; i < 30; i++) {
      const a = await get(s, '/v1/user', TOKEN);
      expect(a.status).toBe(200);
      expect(a.headers.get('x-ratelimit-limit')).toBe('30');
      remaining.push(Number(a.headers.get('x-ratelimit-remaining')));
      // X-RateLimit-Reset: when the limit is whole again, UTC epoch seconds (at most a minute away).
      const reset = Number(a.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(before);
      expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 61);
    }
    expect(remaining[0]).toBe(29);
    expect(remaining.at(-1)).toBe(0);
    const over = await get(s, '/v1/user', TOKEN);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: { code: 429, message: expect.stringContaining('rate limit of 30 requests per minute') } });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(2);
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    // Each token has its own limit.
    const other = await get(s, '/v1/user', OTHER);
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('29');
    // The /_docs routes (docs tokens ...) count against the same limit.
    expect((await get(s, '/_docs/tokens', TOKEN)).status).toBe(429);
    const otherTokens = await get(s, '/_docs/tokens', OTHER);
    expect(otherTokens.status).toBe(200);
    expect(otherTokens.headers.get('x-ratelimit-remaining')).toBe('28');
    // A 401 carries no rate-limit headers (the caller is not known).
    expect((await get(s, '/v1/user', randomToken())).headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('memory is bounded', () => {
  it('at most MAX_TRACKED keys; the least recently seen is dropped first', () => {
    let t = 0;
    const b = new Buckets(10, 2, MAX_TRACKED, () => t);
    b.take('first');
    b.take('first');
    expect(b.has('first')).toBe(false);
    for (let i = 0; i < MAX_TRACKED * 2; i++) b.take(`addr${i}`);
    expect(b.size).toBe(MAX_TRACKED);
    expect(b.has('first')).toBe(true); // forgotten: starts full again
    const small = new Buckets(10, 1, 2, () => t);
    small.take('a');
    small.take('b');
    small.take('a'); // a is now the most recent
    small.take('c'); // drops b
    expect(small.has('a')).toBe(false);
    expect(small.has('b')).toBe(true);
    t += 100; // 10/s: one token back after 100 ms
    expect(small.has('a')).toBe(true);
  });
});
