import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../server/serve.js';
import { TEST_TOKEN } from '../helpers/server.js';

// A malformed chunked body is refused by Node's parser mid-request (the client gets our 400 from
// the `clientError` handler); the request log must say what the client was answered, not 500.

let served: Served;
const lines: string[] = [];

function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.write(request));
    let got = '';
    s.on('data', (d) => (got += d));
    s.on('end', () => resolve(got));
    s.on('close', () => resolve(got));
    s.on('error', reject);
    setTimeout(() => (s.destroy(), resolve(got)), 5000).unref();
  });
}

describe('malformed chunked bodies', () => {
  beforeAll(async () => {
    const prev = process.env.DOCS_BOOTSTRAP_TOKEN;
    process.env.DOCS_BOOTSTRAP_TOKEN = TEST_TOKEN;
    served = await serve({ port: 0, log: (l) => lines.push(l) }).finally(() => {
      if (prev === undefined) delete process.env.DOCS_BOOTSTRAP_TOKEN;
      else process.env.DOCS_BOOTSTRAP_TOKEN = prev;
    });
  });
  afterAll(() => served.close());

  it('are answered 400 and logged as 400', async () => {
    const port = Number(new URL(served.url).port);
    const org = ((await (await fetch(`${served.url}/v1/orgs`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } })).json()) as any).items[0].id;
    const answer = await raw(
      port,
      `POST /v1/orgs/${org}/spaces HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_TOKEN}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"tit\r\nzz-not-hex\r\nle":1}\r\n0\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"code":400');
    // The log line is written once the handler's promise settles.
    const deadline = Date.now() + 3000;
    while (!lines.some((l) => l.startsWith(`POST /v1/orgs/${org}/spaces `)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const line = lines.find((l) => l.startsWith(`POST /v1/orgs/${org}/spaces `));
    expect(line, lines.join('\n')).toMatch(new RegExp(`^POST /v1/orgs/${org}/spaces 400 `));
    // Nothing was created.
    const spaces = (await (await fetch(`${served.url}/v1/orgs/${org}/spaces`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } })).json()) as any;
    expect(spaces.items).toEqual([]);
  }, 20_000);
});
