import { connect } from 'node:net';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../server/serve.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

describe('server guards', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ onDisk: true });
  });
  afterAll(() => s.stop());

  it('answers GET /health without a token', async () => {
    const r = await fetch(`${s.url}/health`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ status: 'ok' });
  });

  it('keeps the data directory and its files readable by the owner only', () => {
    expect(statSync(s.dataDir!).mode & 0o077).toBe(0);
    expect(statSync(join(s.dataDir!, 'store')).mode & 0o077).toBe(0);
    expect(statSync(join(s.dataDir!, 'store', 'root.json')).mode & 0o077).toBe(0);
    expect(statSync(join(s.dataDir!, 'shards')).mode & 0o077).toBe(0); // the format marker
  });
});

describe('a slow client', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve({ port: 0, dataDir: tempDir(), headersTimeoutMs: 500 });
  });
  afterAll(() => served.close());

  it('cannot hold a connection by never finishing its headers', async () => {
    const { port } = new URL(served.url);
    const started = Date.now();
    const answer = await new Promise<string>((resolve) => {
      const sock = connect(Number(port), '127.0.0.1', () => sock.write('GET /v1/orgs HTTP/1.1\r\nHost: x\r\nX-Slow: '));
      let got = '';
      sock.on('data', (d) => (got += d));
      sock.on('close', () => resolve(got));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('{"error":{"code":408,');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
