import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_RETRIES, retryAfterSeconds } from '../../src/transport/http.js';
import { docs } from '../helpers/cli.js';
import { withServer } from '../helpers/loopback.js';

// Over HTTP the CLI sends a request answered 429 again after the server's Retry-After (when it
// is short), a few times, saying so on stderr; a long or missing Retry-After fails at once.

const ORGS = { items: [{ object: 'organization', id: 'org1', title: 'Acme', urls: { location: 'http://x/org1', app: 'http://x/app/org1' } }], count: 1 };

const run = (args: string[]) => docs(args);

const limited = (res: ServerResponse, retryAfter?: string) => {
  res.writeHead(429, { 'content-type': 'application/json', ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }) });
  res.end(JSON.stringify({ error: { code: 429, message: 'token over its limit; retry in 1 s' } }));
};

describe('a 429 over HTTP', () => {
  it('is sent again after Retry-After, saying so, and the command succeeds', async () => {
    const seen: number[] = [];
    await withServer(
      (_req, res) => {
        seen.push(Date.now());
        if (seen.length === 1) return limited(res, '1');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(ORGS));
      },
      async (url) => {
        const r = await run(['orgs', 'list', '--json', '--api-url', url, '--token', 't']);
        expect(r.status).toBe(0);
        expect(JSON.parse(r.stdout).items[0].id).toBe('org1');
        expect(r.stderr).toContain(`token over its limit; retry in 1 s: sending GET /v1/orgs again in 1 s (retry 1 of ${RATE_LIMIT_RETRIES})`);
      },
    );
    expect(seen).toHaveLength(2);
    expect(seen[1]! - seen[0]!).toBeGreaterThanOrEqual(950);
  });

  it(`gives up after ${RATE_LIMIT_RETRIES} retries with the server's message, exit 1`, async () => {
    let n = 0;
    await withServer(
      (_req, res) => (n++, limited(res, '0')),
      async (url) => {
        const r = await run(['orgs', 'list', '--api-url', url, '--token', 't']);
        expect(r.status).toBe(1);
        expect(r.stderr).toContain('token over its limit');
        expect(r.stderr.match(/sending GET \/v1\/orgs again/g)).toHaveLength(RATE_LIMIT_RETRIES);
      },
    );
    expect(n).toBe(RATE_LIMIT_RETRIES + 1);
  });

  it('is answered at once when the wait is long or not given', async () => {
    for (const retryAfter of ['3600', undefined]) {
      let n = 0;
      await withServer(
        (_req, res) => (n++, limited(res, retryAfter)),
        async (url) => {
          const started = Date.now();
          const r = await run(['orgs', 'list', '--api-url', url, '--token', 't']);
          expect(r.status).toBe(1);
          expect(r.stderr).toContain('token over its limit');
          expect(r.stderr).not.toContain('again in');
          expect(Date.now() - started).toBeLessThan(15_000);
        },
      );
      expect(n).toBe(1);
    }
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-24T10:00:00Z');
    expect(retryAfterSeconds('7', now)).toBe(7);
    expect(retryAfterSeconds(' 0 ', now)).toBe(0);
    expect(retryAfterSeconds('Tue, 24 Nov 2026 10:00:05 GMT', now)).toBe(5);
    expect(retryAfterSeconds('Tue, 24 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(undefined, now)).toBeUndefined();
  });
});
