import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny HTTP server on 127.0.0.1 answering as `handler` says (another implementation of the
 * contract, a buggy one, a rate-limited one) for the length of `fn`, which gets its URL.
 */
export async function withServer(handler: (req: IncomingMessage, res: ServerResponse) => void, fn: (url: string) => Promise<void>): Promise<void> {
  const server = createServer(handler).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
