import { createServer, connect, type Server, type Socket } from 'node:net';

// A loopback TCP proxy in front of the test PostgreSQL, so a test can make PostgreSQL "go away"
// without touching the machine's server: `cut()` destroys every proxied connection (both sides,
// as when PostgreSQL's processes die) and closes the listening socket, so new connections are
// refused (ECONNREFUSED, as when nothing listens); `restore()` listens again on the same port.

export interface PgProxy {
  /** `pgUrl` with its host and port replaced by the proxy's. */
  url: string;
  port: number;
  /** Connections open through the proxy now. */
  connections(): number;
  /** The proxy's local ports of its connections to PostgreSQL (`client_port` in pg_stat_activity). */
  upstreamPorts(): number[];
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function pgProxy(pgUrl: string): Promise<PgProxy> {
  const target = new URL(pgUrl);
  const host = target.hostname || '127.0.0.1';
  const targetPort = Number(target.port || 5432);
  const pairs = new Set<[Socket, Socket]>();
  let server: Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(targetPort, host);
        const pair: [Socket, Socket] = [client, upstream];
        pairs.add(pair);
        const end = () => {
          pairs.delete(pair);
          client.destroy();
          upstream.destroy();
        };
        client.on('error', end).on('close', end);
        upstream.on('error', end).on('close', end);
        client.pipe(upstream);
        upstream.pipe(client);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        s.off('error', reject);
        port = (s.address() as { port: number }).port;
        server = s;
        resolve();
      });
    });

  const stopListening = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = undefined;
      if (!s) return resolve();
      s.close(() => resolve());
    });

  const dropAll = () => {
    for (const [a, b] of pairs) {
      a.destroy();
      b.destroy();
    }
    pairs.clear();
  };

  await listen();
  const proxied = new URL(pgUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);
  return {
    url: proxied.toString(),
    port,
    connections: () => pairs.size,
    upstreamPorts: () => [...pairs].map(([, up]) => up.localPort).filter((p): p is number => p !== undefined),
    async cut() {
      const closed = stopListening(); // no new connections from now on...
      dropAll(); // ...and the open ones die (close() waits for them)
      await closed;
    },
    async restore() {
      if (!server) await listen();
    },
    async close() {
      const closed = stopListening();
      dropAll();
      await closed;
    },
  };
}
