import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../server/serve.js';
import { docs, spawnServe } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

// A localhost server a web page cannot reach: a Host header naming anything but the names the
// server answers for (DNS rebinding) gets 421 with the error body, before authentication, on every
// path; cross-origin requests get CORS headers only for the origins given with --cors.

const TOKEN = 'gb_api_host_cors_owner';

async function start(opts: { host?: string; allowedHosts?: string[]; cors?: string[] } = {}): Promise<Served> {
  const prev = process.env.DOCS_BOOTSTRAP_TOKEN;
  process.env.DOCS_BOOTSTRAP_TOKEN = TOKEN;
  try {
    return await serve({ port: 0, ...opts });
  } finally {
    if (prev === undefined) delete process.env.DOCS_BOOTSTRAP_TOKEN;
    else process.env.DOCS_BOOTSTRAP_TOKEN = prev;
  }
}

/** A raw request (fetch would not send a Host header of our choosing). */
function raw(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, headers: { authorization: `Bearer ${TOKEN}`, ...headers }, setHost: !('host' in headers) },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          let body: any = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {}
          resolve({ status: res.statusCode!, headers: res.headers, body });
        });
      },
    );
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

describe('Host header check (default: listening on 127.0.0.1)', () => {
  let s: Served;
  beforeAll(async () => (s = await start({ allowedHosts: ['docs.lan'] })));
  afterAll(() => s.close());

  it('a rebound name gets 421 with the error body on every path, even with a valid token', async () => {
    for (const [method, path] of [
      ['GET', '/health'],
      ['GET', '/v1/user'],
      ['GET', '/sites/x/y'],
      ['POST', '/mcp'],
      ['GET', '/.well-known/jwks.json'],
      ['GET', '/files/x'],
    ] as const) {
      const r = await raw(s.port, method, path, { host: `evil.example:${s.port}` });
      expect(r.status, `${method} ${path}`).toBe(421);
      expect(r.body).toEqual({ error: { code: 421, message: expect.stringContaining('does not answer for host "evil.example:') } });
    }
    for (const host of ['docs.lan.evil.example', '127.0.0.1.evil.example', 'localhost:abc', `evil.example@127.0.0.1:${s.port}`, '', '[::1']) {
      expect((await raw(s.port, 'GET', '/v1/user', { host })).status, host).toBe(421);
    }
  });

  it('the loopback names, the --host value and --allowed-host names are answered, on any port', async () => {
    for (const host of [`127.0.0.1:${s.port}`, `localhost:${s.port}`, 'LOCALHOST', 'localhost.', `[::1]:${s.port}`, 'docs.lan', 'docs.lan:8080']) {
      const r = await raw(s.port, 'GET', '/v1/user', { host });
      expect(r.status, host).toBe(200);
    }
  });
});

describe('Host header check on a wildcard address', () => {
  let s: Served;
  beforeAll(async () => (s = await start({ host: '0.0.0.0' })));
  afterAll(() => s.close());

  it('any IP address is answered (an address cannot be rebound), names only if listed', async () => {
    expect((await raw(s.port, 'GET', '/v1/user', { host: `10.1.2.3:${s.port}` })).status).toBe(200);
    expect((await raw(s.port, 'GET', '/v1/user', { host: '[fe80::1]' })).status).toBe(200);
    expect((await raw(s.port, 'GET', '/v1/user', { host: 'localhost' })).status).toBe(200);
    expect((await raw(s.port, 'GET', '/v1/user', { host: 'attacker.example' })).status).toBe(421);
  });
});

const APP = 'http://localhost:5173';

describe('CORS', () => {
  let plain: Served;
  let withCors: Served;
  beforeAll(async () => {
    plain = await start();
    withCors = await start({ cors: [APP] });
  });
  afterAll(async () => {
    await plain.close();
    await withCors.close();
  });

  const preflight = (s: Served, origin: string) =>
    raw(s.port, 'OPTIONS', '/v1/user', {
      origin,
      'access-control-request-method': 'PATCH',
      'access-control-request-headers': 'authorization, content-type',
      authorization: '',
    });
  const cors = (h: Record<string, unknown>) => Object.keys(h).filter((k) => k.startsWith('access-control-'));

  it('without --cors: no CORS headers on a cross-origin request or preflight', async () => {
    const get = await raw(plain.port, 'GET', '/v1/user', { origin: APP });
    expect(get.status).toBe(200);
    expect(cors(get.headers)).toEqual([]);
    const pre = await preflight(plain, APP);
    expect(pre.status).not.toBe(204);
    expect(cors(pre.headers)).toEqual([]);
  });

  it('with --cors ORIGIN: a preflight from it is answered 204 before authentication', async () => {
    const pre = await preflight(withCors, APP);
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(APP);
    expect(pre.headers['access-control-allow-methods']).toContain('PATCH');
    expect(String(pre.headers['access-control-allow-headers']).toLowerCase()).toBe('authorization, content-type');
    expect(Number(pre.headers['access-control-max-age'])).toBeGreaterThan(0);
    expect(pre.headers.vary).toBe('Origin');
  });

  it('actual answers carry Access-Control-Allow-Origin for that origin only, errors included', async () => {
    const ok = await raw(withCors.port, 'GET', '/v1/user', { origin: APP });
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(APP);
    expect(ok.headers.vary).toBe('Origin');
    const denied = await raw(withCors.port, 'GET', '/v1/user', { origin: APP, authorization: 'Bearer wrong' });
    expect(denied.status).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe(APP);
    const other = await raw(withCors.port, 'GET', '/v1/user', { origin: 'http://evil.example' });
    expect(other.status).toBe(200);
    expect(cors(other.headers)).toEqual([]);
    expect(other.headers.vary).toBe('Origin');
    const otherPre = await preflight(withCors, 'http://evil.example');
    expect(otherPre.status).not.toBe(204);
    expect(cors(otherPre.headers)).toEqual([]);
    // A page that rebinds a name gets no further with an allowed Origin: the Host check comes first.
    expect((await raw(withCors.port, 'GET', '/v1/user', { origin: APP, host: 'evil.example' })).status).toBe(421);
  });
});

describe('docs serve flags', () => {
  it('--cors needs an origin, --rate-limit a number or off: exit 2', async () => {
    const dir = tempDir();
    const bad = await docs(['serve', '--port', '0', '--data', dir, '--cors', 'http://localhost:5173/app']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--cors: expected an origin');
    const rate = await docs(['serve', '--port', '0', '--data', dir, '--rate-limit', 'lots']);
    expect(rate.status).toBe(2);
    expect(rate.stderr).toContain('--rate-limit');
  });

  it('a spawned docs serve with --allowed-host, --cors and --rate-limit applies them', async () => {
    const s = await spawnServe(['--data', tempDir(), '--quiet', '--allowed-host', 'docs.lan', '--cors', 'http://LOCALHOST:5173/', '--rate-limit', '100'], {
      DOCS_BOOTSTRAP_TOKEN: TOKEN,
    });
    try {
      const port = Number(new URL(s.url).port);
      const r = await raw(port, 'GET', '/v1/user', { host: 'docs.lan', origin: APP });
      expect(r.status).toBe(200);
      expect(r.headers['access-control-allow-origin']).toBe(APP);
      expect(r.headers['x-ratelimit-limit']).toBe('100');
      expect((await raw(port, 'GET', '/health', { host: 'other.lan' })).status).toBe(421);
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });
});
