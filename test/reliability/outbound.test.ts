import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryIdle } from '../../src/integrations/delivery.js';
import { configuredTranslator, LibreTranslate } from '../../src/translations/translator.js';
import { manifest } from '../integrations/helpers.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Outbound requests the OpenAPI tests do not already cover (test/openapi/http.test.ts: schemes,
// private addresses, redirects, timeout and size cap of spec fetches; test/content/files-url.test.ts:
// the same guard for file URLs; test/integrations/dev-mode.test.ts: tunnel schemes and timeouts;
// test/translations: translator timeouts): the size caps of the development tunnel's and the
// translator's answers, and the translator URL's scheme.

/** A server on 127.0.0.1 that answers 200 and then sends bytes for as long as the client reads. */
async function endless(): Promise<{ url: string; sent: () => number; close: () => Promise<void> }> {
  let sent = 0;
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    const pump = () => {
      while (!res.destroyed && sent < 512 * 1024 * 1024) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => res.destroy());
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { url, sent: () => sent, close: () => new Promise<void>((r) => (server.close(() => r()), server.closeAllConnections())) };
}

describe('outbound answers are read up to a cap', () => {
  let s: TestServer;
  let src: Awaited<ReturnType<typeof endless>>;
  const prevTimeout = process.env.DOCS_DELIVERY_TIMEOUT_MS;
  beforeAll(async () => {
    // Reading a body without end would hit this deadline and mark the event failed.
    process.env.DOCS_DELIVERY_TIMEOUT_MS = '3000';
    s = await startServer({ allowPrivateTunnels: true }); // the slow sources are on 127.0.0.1
    src = await endless();
  });
  afterAll(async () => {
    if (prevTimeout === undefined) delete process.env.DOCS_DELIVERY_TIMEOUT_MS;
    else process.env.DOCS_DELIVERY_TIMEOUT_MS = prevTimeout;
    await src.close();
    await s.stop();
  });

  it('the development tunnel: an endless answer is dropped after its status, the event delivered', async () => {
    const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
    await s.api('POST', '/v1/integrations/endless', { body: manifest(org) });
    expect((await s.api('PUT', '/v1/integrations/endless/dev', { body: { tunnelUrl: src.url } })).status).toBe(204);
    await s.api('POST', '/v1/integrations/endless/installations', { body: { organization: org } });
    await deliveryIdle(s.ctx);
    const [ev] = (await s.api('GET', '/v1/integrations/endless/events')).body.items;
    expect(ev.status).toBe('success');
    expect(src.sent()).toBeLessThan(64 * 1024 * 1024);
  });

  it('the translator: an answer past the cap fails the request without reading it all', async () => {
    const t = new LibreTranslate(src.url, undefined, 5000, 1024 * 1024);
    await expect(t.translate(['Hello'], 'en', 'fr')).rejects.toMatchObject({
      code: 'TRANSLATOR_ERROR',
      message: expect.stringContaining('answer larger than 1048576 bytes'),
    });
    expect(src.sent()).toBeLessThan(128 * 1024 * 1024);
  });

  it('the translator URL: only http and https', () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/', 'gopher://127.0.0.1/', 'not a url']) {
      expect(() => configuredTranslator({ DOCS_TRANSLATOR_URL: url }), url).toThrow(/DOCS_TRANSLATOR_URL: must be an http\(s\) URL/);
    }
    expect(configuredTranslator({ DOCS_TRANSLATOR_URL: 'https://translate.example.com' })?.name).toBe('https://translate.example.com');
  });
});
