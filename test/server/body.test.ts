import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readJsonBody } from '../../server/body.js';
import type { DocsError } from '../../src/kernel/errors.js';

// readJsonBody over a real socket: bodies in several chunks, over the limit while streamed
// (chunked: no declared length), and cut short by a client that goes away.

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

/** A server answering each request with what readJsonBody gave (or its error's kind), and the port. */
async function reader(limit: number): Promise<{ port: number; results: Promise<unknown>[] }> {
  const results: Promise<unknown>[] = [];
  server = createServer((req: IncomingMessage, res) => {
    const got = readJsonBody(req, limit).then(
      (body) => ({ body }),
      (err: DocsError) => ({ kind: err.kind }),
    );
    results.push(got);
    void got.then((r) => {
      if (!res.destroyed) res.end(JSON.stringify(r));
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, results };
}

/** Sends `parts` chunked, a pause between them; ends the request unless `cut` (then destroys it). */
function send(port: number, parts: string[], cut = false): Promise<void> {
  return new Promise((resolve) => {
    const req = request({ port, host: '127.0.0.1', method: 'POST', path: '/', headers: { 'content-type': 'application/json' } });
    req.on('error', () => resolve());
    req.on('response', (res) => {
      res.resume();
      res.on('end', resolve);
    });
    let i = 0;
    const next = () => {
      if (i < parts.length) {
        req.write(parts[i++]);
        setTimeout(next, 5);
      } else if (cut) {
        req.destroy();
        resolve();
      } else req.end();
    };
    next();
  });
}

describe('readJsonBody', () => {
  it('joins a body sent in several chunks; no body is undefined', async () => {
    const { port, results } = await reader(1000);
    await send(port, ['{"title":', '"Acme', ' Docs"}']);
    await send(port, []);
    expect(await Promise.all(results)).toEqual([{ body: { title: 'Acme Docs' } }, { body: undefined }]);
  });

  it('refuses a streamed body past the limit (413), and one cut short by its client (400)', async () => {
    const { port, results } = await reader(100);
    await send(port, ['{"title":"', 'x'.repeat(60), 'x'.repeat(60), '"}']);
    await send(port, ['{"title":"', 'xx'], true);
    const deadline = Date.now() + 5000;
    while (results.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(await Promise.all(results)).toEqual([{ kind: 'too_large' }, { kind: 'invalid' }]);
  });
});
