import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../server/serve.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Limits not shown elsewhere (413, malformed bodies and limit=0: test/server/http.test.ts; slow
// headers: test/server/limits.test.ts; limit=5000 on every list: test/reliability/fuzz.test.ts):
// the exact page-size bound, and a client that sends its headers but trickles its body.

describe('page size', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.stop());

  it('takes limit 1..1000 and refuses 1001 with 400 naming the parameter', async () => {
    expect((await s.api('GET', '/v1/orgs?limit=1000')).status).toBe(200);
    expect((await s.api('GET', '/v1/orgs?limit=1')).status).toBe(200);
    const r = await s.api('GET', '/v1/orgs?limit=1001');
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/^query\.limit: /);
    const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
    expect((await s.api('GET', `/v1/orgs/${org}/spaces?limit=1001`)).status).toBe(400);
  });
});

describe('a client that trickles its body', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve({ port: 0, headersTimeoutMs: 300, requestTimeoutMs: 1000 });
  });
  afterAll(() => served.close());

  it('is answered 408 once the request timeout passes, and its connection closed', async () => {
    const port = Number(new URL(served.url).port);
    const started = Date.now();
    let ticker: NodeJS.Timeout | undefined;
    const answer = await new Promise<string>((resolve) => {
      const sock = connect(port, '127.0.0.1', () => {
        sock.write(
          `POST /v1/orgs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${served.bootstrapToken}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"title":"`,
        );
        // One byte every 100 ms: never idle long, never done.
        ticker = setInterval(() => sock.writable && sock.write('a'), 100);
      });
      let got = '';
      sock.on('data', (d) => (got += d));
      sock.on('error', () => {});
      sock.on('close', () => resolve(got));
    });
    clearInterval(ticker);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('{"error":{"code":408,');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
