import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small LibreTranslate-compatible server on 127.0.0.1: POST /translate with
 * `{q, source, target, format, api_key?}` answers `{translatedText}` ("[target] text" for each
 * text). `hold` delays answers until it resolves; `mode` makes it fail (500 with `{error}`), hang (for timeouts) or answer a wrong shape.
 */
export async function startFakeTranslator() {
  const state = { mode: 'ok' as 'ok' | 'fail' | 'hang' | 'garbage', requests: [] as any[], hold: undefined as Promise<void> | undefined };
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const body = JSON.parse(text || '{}');
    state.requests.push({ method: req.method, url: req.url, body });
    if (req.method !== 'POST' || req.url !== '/translate') return res.writeHead(404).end();
    if (state.mode === 'hang') return; // never answers
    if (state.hold) await state.hold; // answers when the test lets it (to act while a run is running)
    res.setHeader('content-type', 'application/json');
    if (state.mode === 'fail') return res.writeHead(500).end(JSON.stringify({ error: 'model not loaded' }));
    if (state.mode === 'garbage') return res.end(JSON.stringify({ nope: true }));
    const q: string[] = Array.isArray(body.q) ? body.q : [body.q];
    const out = q.map((t) => `[${body.target}] ${t}`);
    res.end(JSON.stringify({ translatedText: Array.isArray(body.q) ? out : out[0] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    state,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
