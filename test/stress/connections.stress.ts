import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { spawnServe } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

// The connection cap and the header timeout, on a spawned `docs serve`: past 4096 open
// connections new ones are dropped (memory stays bounded whatever a client opens), and within
// the 10 s header timeout (plus the 1 s check interval) the server closes every connection that
// has not sent a complete request, idle or slow, so none can hold it. Then it answers again.

const CAP = 4096;
const EXTRA = 300;

function open(port: number, slow: boolean): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1', () => {
      if (slow) sock.write('GET /v1/orgs HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
      resolve(sock);
    });
    sock.resume(); // reads (and drops) what the server sends, so its FIN is seen
    sock.on('error', () => {}); // a dropped connection may reset
    sock.once('error', reject);
  });
}

describe('connection cap and header timeout', () => {
  it(`drops connections past ${CAP} and closes idle and slow ones after the header timeout`, async () => {
    const s = await spawnServe(['--data', tempDir(), '--quiet'], { DOCS_BOOTSTRAP_TOKEN: 'gb_api_cap' });
    const port = Number(new URL(s.url).port);
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < CAP + EXTRA; i += 100) {
        const batch = await Promise.allSettled(Array.from({ length: 100 }, (_, j) => open(port, (i + j) % 2 === 1)));
        for (const r of batch) if (r.status === 'fulfilled') sockets.push(r.value);
      }
      await new Promise((r) => setTimeout(r, 1000));
      const dropped = sockets.filter((x) => x.destroyed).length;
      expect(dropped, 'connections past the cap are dropped').toBeGreaterThanOrEqual(EXTRA - 10);

      // Nobody sends a complete request: all are closed by the header timeout (10 s).
      const started = Date.now();
      await Promise.all(sockets.map((x) => new Promise<void>((r) => (x.destroyed ? r() : x.once('close', () => r())))));
      expect(Date.now() - started).toBeLessThan(15_000);
      const health = await fetch(`${s.url}/health`, { signal: AbortSignal.timeout(5000) });
      expect(health.status).toBe(200);
    } finally {
      for (const x of sockets) x.destroy();
      s.child.kill('SIGTERM');
      await s.exited;
    }
  }, 120_000);
});
