import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HttpTransport } from '../../src/transport/http.js';

// Issue 30, item 1: `docs content push` against a running server failed with "other side
// closed": its comparison kept the event loop busy past the server's keep-alive, then its POST
// went out on the connection the server was closing (the keep-alive race: the server closes an
// idle connection as a request arrives, unread). This server plays that race deterministically:
// a request arriving on a connection idle for more than 500 ms is dropped unread, the connection
// closed, as a server whose idle timer fired that instant would. A client must not send there.

const IDLE_CLOSE_MS = 500;
let server: Server;
let url: string;
let connections = 0;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let last = Date.now();
    let buffered = '';
    socket.on('data', (d) => {
      if (!buffered && Date.now() - last > IDLE_CLOSE_MS) return socket.destroy(); // closed while idle: unread
      buffered += d.toString('latin1');
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/content-length: *(\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
      if (buffered.length < end + 4 + length) return;
      const method = buffered.slice(0, buffered.indexOf(' '));
      buffered = '';
      const body = JSON.stringify({ method });
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nkeep-alive: timeout=5\r\n\r\n${body}`);
      last = Date.now();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => {
  for (const socket of sockets) socket.destroy();
  return new Promise<void>((r) => server.close(() => r()));
});

/** What a long comparison does to the event loop: nothing else runs meanwhile. */
function busy(ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end);
}

it('after a blocked event loop, a request (a POST too) goes out on a fresh connection, not one the server may be closing', async () => {
  const t = new HttpTransport(url, 'gb_api_x');
  try {
    expect((await t.request('GET', '/v1/orgs')).body).toEqual({ method: 'GET' });
    // Back to back: the kept-alive connection serves again.
    expect((await t.request('GET', '/v1/orgs')).body).toEqual({ method: 'GET' });
    expect(connections).toBe(1);
    busy(1500);
    expect((await t.request('POST', '/v1/orgs', { body: { title: 'x' } })).body).toEqual({ method: 'POST' });
    expect(connections).toBe(2);
    // Calls made together after a gap share the one new pool: none is sent on a pool another closed.
    busy(1500);
    const together = await Promise.all([1, 2, 3].map(() => t.request('GET', '/v1/orgs')));
    expect(together.map((r) => r.body)).toEqual([{ method: 'GET' }, { method: 'GET' }, { method: 'GET' }]);
  } finally {
    await t.close();
  }
});
