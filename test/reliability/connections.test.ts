import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../server/serve.js';
import { spawnServe } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

// Many connections do not exhaust memory: 2,000 connections to a spawned `docs serve`, half
// idle (nothing sent), half slow (headers started, never finished). The server's own RSS must
// stay within a bound, and it must go on answering /health and the API meanwhile. Every socket
// is closed at the end. (The cap itself, 4096 connections, is in test/stress/connections.stress.ts.)

const CONNECTIONS = 2000;
/** Generous: a Node socket with its HTTP parser costs a few kB; 2,000 of them, far less than this. */
const MAX_GROWTH_MB = 40; // measured: ~13 MB
const TOKEN = 'gb_api_many_connections';

function rssMb(pid: number): number {
  const status = `/proc/${pid}/status`;
  if (existsSync(status)) return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(status, 'utf8'))![1]) / 1024;
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024;
}

function open(port: number, slow: boolean): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1', () => {
      if (slow) sock.write('GET /v1/orgs HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
      resolve(sock);
    });
    sock.on('error', reject);
  });
}

describe('many connections', () => {
  let served: Awaited<ReturnType<typeof spawnServe>>;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    served = await spawnServe(['--data', tempDir(), '--quiet'], { DOCS_BOOTSTRAP_TOKEN: TOKEN });
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    served.child.kill('SIGTERM');
    await served.exited;
  });

  it(`holds ${CONNECTIONS} idle and slow connections within a memory bound, and still answers`, async () => {
    const port = Number(new URL(served.url).port);
    const auth = { authorization: `Bearer ${TOKEN}` };
    // Warm up what a request loads (handlers, validators), so the baseline is a serving process.
    for (let i = 0; i < 20; i++) expect((await fetch(`${served.url}/v1/orgs`, { headers: auth })).status).toBe(200);
    const before = rssMb(served.child.pid!);

    for (let i = 0; i < CONNECTIONS; i += 100) {
      sockets.push(...(await Promise.all(Array.from({ length: 100 }, (_, j) => open(port, (i + j) % 2 === 1)))));
    }
    const closedEarly = sockets.filter((s) => s.destroyed).length;
    expect(closedEarly, 'connections the server dropped below its cap').toBe(0);

    // Answers while they are held: no token needed for /health, and a real API call.
    const health = await fetch(`${served.url}/health`, { signal: AbortSignal.timeout(5000) });
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${served.url}/v1/orgs`, { headers: auth, signal: AbortSignal.timeout(5000) })).status).toBe(200);

    const during = rssMb(served.child.pid!);
    expect(during - before, `RSS ${before.toFixed(1)} MB -> ${during.toFixed(1)} MB with ${CONNECTIONS} connections`).toBeLessThan(MAX_GROWTH_MB);

    // Every socket closed; the server goes on.
    await Promise.all(sockets.map((s) => new Promise<void>((r) => (s.destroyed ? r() : (s.once('close', () => r()), s.destroy())))));
    expect(sockets.every((s) => s.destroyed)).toBe(true);
    expect((await fetch(`${served.url}/health`)).status).toBe(200);
  }, 60_000);
});

describe('clients that never read nor finish', () => {
  let served: Served;
  const CAP = 20;
  beforeAll(async () => {
    served = await serve({ port: 0, headersTimeoutMs: 500, maxConnections: CAP });
  });
  afterAll(() => served.close());

  it('lose their connections after the header timeout, so they cannot fill the connection cap for good', async () => {
    const port = Number(new URL(served.url).port);
    // Paused sockets (no 'data' listener): they never read the 408 nor close on its FIN.
    const held = await Promise.all(Array.from({ length: CAP }, (_, i) => open(port, i % 2 === 1)));
    try {
      // At the cap, a new connection is dropped...
      await expect(fetch(`${served.url}/health`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
      // ...until the header timeout (500 ms, checked every 500 ms) and the grace to read the 408
      // (1 s) have passed: then the server has let go of every one of them.
      await new Promise((r) => setTimeout(r, 2600));
      const health = await fetch(`${served.url}/health`, { signal: AbortSignal.timeout(2000) });
      expect(health.status).toBe(200);
    } finally {
      for (const s of held) s.destroy();
    }
  });
});
