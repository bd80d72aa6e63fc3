import type { ServerResponse } from 'node:http';
import { asDocsError } from '../src/kernel/errors.js';

// Server-sent events: how an operation whose contract answers `text/event-stream` (ask, AI
// responses: src/ask/) is sent. Each event the handler yields is written at once as one
// `data: <JSON>` message (no buffering: the first event reaches the client before the rest is
// computed); the stream ends when the handler's does. A failure after the first event cannot
// change the status any more: it is sent as an `event: error` message with the API's error body,
// then the stream ends. A client that goes away stops the handler's iteration (its `return`).
// docs/manual/ask.md#streamed-answers

/** Writes `events` as server-sent events; resolves with the status (200) once the stream ended. */
export async function sendEvents(res: ServerResponse, status: number, events: AsyncIterable<unknown>, headers?: Record<string, string>): Promise<number> {
  const it = events[Symbol.asyncIterator]();
  let gone = false;
  const onClose = () => {
    gone = true;
    void it.return?.().catch(() => undefined);
  };
  res.on('close', onClose);
  try {
    // A failure before the first event: nothing sent yet, the ordinary JSON error answer (server/app.ts).
    const first = await it.next();
    res.writeHead(status, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      ...headers,
    });
    res.flushHeaders();
    for (let r = first; !r.done && !gone; r = await nextOrError(it, res)) res.write(`data: ${JSON.stringify(r.value)}\n\n`);
    if (!gone) res.end();
    return status;
  } finally {
    res.off('close', onClose);
  }
}

/** The next event; a failure is written as an `error` event and ends the stream. */
async function nextOrError(it: AsyncIterator<unknown>, res: ServerResponse): Promise<IteratorResult<unknown>> {
  try {
    return await it.next();
  } catch (err) {
    const e = asDocsError(err);
    if (e.kind === 'bug' && process.env.DEBUG) console.error(err);
    res.write(`event: error\ndata: ${JSON.stringify(e.toBody())}\n\n`);
    return { done: true, value: undefined };
  }
}
