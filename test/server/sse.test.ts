import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fetch } from 'undici';
import { sendEvents } from '../../server/sse.js';
import { DocsError } from '../../src/kernel/errors.js';
import { sseEvents } from '../../src/transport/http.js';

// server/sse.ts (docs/manual/ask.md#streamed-answers): each event written as it is made, a failure
// after the first sent as an `error` event, a failure before it left to the JSON error answer, a
// client that leaves stops the handler's iteration.

async function serving(events: () => AsyncIterable<unknown>, fn: (url: string, outcome: Promise<unknown>) => Promise<void>) {
  let settle!: (v: unknown) => void;
  const outcome = new Promise((r) => (settle = r));
  const server = createServer((_req, res) => {
    sendEvents(res, 200, events()).then(
      (status) => settle({ status }),
      (err) => {
        settle({ error: (err as Error).message });
        res.writeHead(400).end('refused');
      },
    );
  }).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, outcome);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

describe('server-sent events', () => {
  it('sends the first event before the next is made', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await serving(
      async function* () {
        yield { n: 1 };
        await gate;
        yield { n: 2 };
      },
      async (url, outcome) => {
        const res = await fetch(url);
        expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
        const reader = res.body!.getReader();
        const first = new TextDecoder().decode((await reader.read()).value);
        expect(first).toBe('data: {"n":1}\n\n');
        release();
        let rest = '';
        for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
        expect(sseEvents(first + rest)).toEqual([{ n: 1 }, { n: 2 }]);
        expect(await outcome).toEqual({ status: 200 });
      },
    );
  });

  it('a failure before the first event is thrown (the JSON error answer); after it, an error event ends the stream', async () => {
    await serving(
      // biome-ignore lint/correctness/useYield: fails before its first event on purpose
      async function* () {
        throw new DocsError('invalid', 'query: bad');
      },
      async (url, outcome) => {
        const res = await fetch(url);
        expect(res.status).toBe(400);
        expect(await outcome).toEqual({ error: 'query: bad' });
      },
    );
    await serving(
      async function* () {
        yield { n: 1 };
        throw new DocsError('unavailable', 'index gone');
      },
      async (url) => {
        const text = await (await fetch(url)).text();
        expect(text).toBe('data: {"n":1}\n\nevent: error\ndata: {"error":{"code":503,"message":"index gone"}}\n\n');
        expect(() => sseEvents(text)).toThrow('index gone');
      },
    );
  });

  it('a client that leaves stops the iteration', async () => {
    let made = 0;
    let stopped!: () => void;
    const done = new Promise<void>((r) => (stopped = r));
    await serving(
      async function* () {
        try {
          for (;;) {
            made++;
            yield { n: made };
            await new Promise((r) => setTimeout(r, 5));
          }
        } finally {
          stopped();
        }
      },
      async (url) => {
        const controller = new AbortController();
        const res = await fetch(url, { signal: controller.signal });
        await res.body!.getReader().read();
        controller.abort();
        await done;
        const at = made;
        await new Promise((r) => setTimeout(r, 50));
        expect(made).toBe(at);
      },
    );
  });
});
