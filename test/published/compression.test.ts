import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressible, compressStats, negotiate } from '../../server/published/compress.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, edit, page, spaceWith } from './fixture.js';

// Published pages and their script answer compressed (brotli or gzip, as Accept-Encoding asks),
// with Vary: Accept-Encoding and an ETag per representation; a page served from the page cache
// is not compressed again. docs/manual/published-sites.md#compression

let s: TestServer;
let base: string;
let spaceId: string;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request whose body is not decoded (fetch would decompress it). */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (r: Raw) =>
  r.headers['content-encoding'] === 'br' ? brotliDecompressSync(r.body) : r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body) : r.body;

beforeAll(async () => {
  s = await startServer();
  const call = api(s);
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  const long = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} of a page long enough to be worth compressing.`).join('\n\n');
  const g = await spaceWith(s, org, 'Guides', [page('a', 'Alpha', long), page('b', 'Beta', 'Short.')]);
  spaceId = g.space.id;
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Zip Docs', spaces: [spaceId] });
  base = (await call('POST', `/v1/orgs/${org}/sites/${site.id}/publish`)).urls.published;
}, 60_000);
afterAll(() => s?.stop());

describe('compression of published pages', () => {
  it('answers brotli, gzip or identity as Accept-Encoding asks, the same page in each', async () => {
    const plain = await raw(`${base}/alpha`);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
    const br = await raw(`${base}/alpha`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(decode(br).equals(plain.body)).toBe(true);
    const gz = await raw(`${base}/alpha`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decode(gz).equals(plain.body)).toBe(true);
    // q-values: brotli refused (q=0), or preferred less.
    expect((await raw(`${base}/alpha`, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await raw(`${base}/alpha`, { 'accept-encoding': 'br;q=0.5, gzip;q=0.9' })).headers['content-encoding']).toBe('gzip');
    expect((await raw(`${base}/alpha`, { 'accept-encoding': 'identity' })).headers['content-encoding']).toBeUndefined();
    expect((await raw(`${base}/alpha`, { 'accept-encoding': '*;q=0' })).headers['content-encoding']).toBeUndefined();
    // The CSP and the other headers are those of the uncompressed answer.
    expect(br.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('gives each representation its own ETag, and answers If-None-Match with a 304 for that one only', async () => {
    const plain = await raw(`${base}/alpha`);
    const br = await raw(`${base}/alpha`, { 'accept-encoding': 'br' });
    const gz = await raw(`${base}/alpha`, { 'accept-encoding': 'gzip' });
    const tags = [plain, br, gz].map((r) => r.headers.etag as string);
    expect(tags.every((t) => /^"[\w-]+"$/.test(t))).toBe(true);
    expect(new Set(tags).size).toBe(3);
    const again = await raw(`${base}/alpha`, { 'accept-encoding': 'br', 'if-none-match': tags[1]! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(tags[1]);
    expect(again.headers.vary).toBe('Accept-Encoding');
    // A cache holding the gzip bytes does not get a 304 for a brotli request, nor identity's.
    expect((await raw(`${base}/alpha`, { 'accept-encoding': 'br', 'if-none-match': tags[2]! })).status).toBe(200);
    expect((await raw(`${base}/alpha`, { 'if-none-match': tags[1]! })).status).toBe(200);
    expect((await raw(`${base}/alpha`, { 'if-none-match': `"x", W/${tags[0]}` })).status).toBe(304);
    // A changed page has a new ETag: the old one gets the new page.
    await edit(s, spaceId, [
      {
        operation: 'update_page',
        page: (await api(s)('GET', `/v1/spaces/${spaceId}/content/path/alpha`)).id,
        document: { markdown: `${'Changed. '.repeat(200)}` },
      },
    ]);
    const changed = await raw(`${base}/alpha`, { 'accept-encoding': 'br', 'if-none-match': tags[1]! });
    expect(changed.status).toBe(200);
    expect(decode(changed).toString()).toContain('Changed.');
    expect(changed.headers.etag).not.toBe(tags[1]);
  });

  it('compresses a cached page once per coding', async () => {
    await raw(`${base}/alpha`, { 'accept-encoding': 'br' });
    const before = { ...compressStats };
    for (let i = 0; i < 5; i++) {
      await raw(`${base}/alpha`, { 'accept-encoding': 'br' });
      await raw(`${base}/alpha`, { 'accept-encoding': 'gzip' });
    }
    expect(compressStats.br).toBe(before.br);
    expect(compressStats.gzip).toBeLessThanOrEqual(before.gzip + 1);
    // Concurrent first requests of a new page share one compression.
    const prior = compressStats.br;
    await raw(`${base}/beta`); // rendered and cached first
    await Promise.all(Array.from({ length: 8 }, () => raw(`${base}/beta`, { 'accept-encoding': 'br' })));
    expect(compressStats.br - prior).toBeLessThanOrEqual(1);
  });

  it('compresses the site script and keeps its year-long caching; HEAD gives the compressed length', async () => {
    const html = (await raw(`${base}/alpha`)).body.toString();
    const src = /<script src="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
    const js = await raw(new URL(src, s.url).href, { 'accept-encoding': 'br' });
    expect(js.status).toBe(200);
    expect(js.headers['content-encoding']).toBe('br');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const head = await raw(new URL(src, s.url).href, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-length']).toBe(String(js.body.length));
    expect(head.body.length).toBe(0);
  });

  it('does not compress a tiny body (robots.txt), and keeps no Vary on it', async () => {
    const r = await raw(`${base}/robots.txt`, { 'accept-encoding': 'br, gzip' });
    expect(r.status).toBe(200);
    expect(r.body.length).toBeLessThan(1024);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers.vary).toBeUndefined();
  });

  it('compresses search results and llms.txt, and a 404 without an ETag', async () => {
    const search = await raw(`${base}/~/search.json?q=paragraph`, { 'accept-encoding': 'gzip' });
    expect(search.status).toBe(200);
    if (search.body.length) expect(JSON.parse(decode(search).toString()).query).toBe('paragraph');
    const missing = await raw(`${base}/no-such-page`, { 'accept-encoding': 'br' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBe('br');
    expect(missing.headers.etag).toBeUndefined();
  });
});

describe('what is compressed', () => {
  it('text of at least 1 kB; never images, which are compressed already', () => {
    expect(compressible('text/html; charset=utf-8', 5000)).toBe(true);
    expect(compressible('text/javascript; charset=utf-8', 5000)).toBe(true);
    expect(compressible('application/json; charset=utf-8', 5000)).toBe(true);
    expect(compressible('image/svg+xml', 5000)).toBe(true);
    expect(compressible('text/html; charset=utf-8', 1023)).toBe(false);
    for (const t of ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif', 'application/pdf', 'application/gzip', 'font/woff2'])
      expect(compressible(t, 1_000_000), t).toBe(false);
  });

  it('negotiates as RFC 9110 says', () => {
    expect(negotiate(undefined)).toBeUndefined();
    expect(negotiate('')).toBeUndefined();
    expect(negotiate('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiate('gzip')).toBe('gzip');
    expect(negotiate('x-gzip')).toBe('gzip');
    expect(negotiate('deflate')).toBeUndefined();
    expect(negotiate('*')).toBe('br');
    expect(negotiate('gzip;q=1, *;q=0')).toBe('gzip');
    expect(negotiate('br;q=0.1, gzip;q=0.2')).toBe('gzip');
    expect(negotiate('BR;Q=1')).toBe('br');
    expect(negotiate('br;q=0, gzip;q=0')).toBeUndefined();
    expect(negotiate('br;q=abc, gzip')).toBe('gzip');
    expect(negotiate(',,;;,q=1')).toBeUndefined();
  });
});
