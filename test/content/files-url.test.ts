import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

// insert_files with a `url`: fetched through the guarded fetch (private addresses refused unless
// DOCS_FETCH_ALLOW_PRIVATE=1, as for OpenAPI sources), stored like base64 uploads.

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000003000000020806000000', 'hex');
let s: TestServer;
let files: Server;
let base: string;
let space: string;

beforeAll(async () => {
  s = await startServer();
  files = createServer((req, res) => {
    if (req.url === '/dot.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    if (req.url === '/big.bin') return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(1024 * 1024 + 10));
    res.writeHead(404).end();
  }).listen(0, '127.0.0.1');
  await new Promise((r) => files.once('listening', r));
  base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Files' } })).body.id;
});
afterAll(async () => {
  delete process.env.DOCS_FETCH_ALLOW_PRIVATE;
  files.close();
  await s.stop();
});

async function insert(url: string) {
  const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Files' } })).body;
  const r = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, {
    body: { changes: [{ operation: 'insert_files', files: [{ name: 'dot.png', url }] }] },
  });
  return { cr, r };
}

describe('insert_files from a URL', () => {
  it('refuses a private address by default, changing nothing', async () => {
    const { cr, r } = await insert(`${base}/dot.png`);
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/^changes\[0\]\.files\[0\]\.url: /);
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}/content/files`)).body.items).toEqual([]);
  });

  it('fetches and stores the bytes with their content type when allowed; refuses over 1 MB and HTTP errors', async () => {
    process.env.DOCS_FETCH_ALLOW_PRIVATE = '1';
    const { cr, r } = await insert(`${base}/dot.png`);
    expect(r.status).toBe(200);
    const listed = (await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}/content/files`)).body.items;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ name: 'dot.png', contentType: 'image/png', size: PNG.length, dimensions: { width: 3, height: 2 } });
    const bytes = Buffer.from(await (await fetch(listed[0].downloadURL)).arrayBuffer());
    expect(bytes.equals(PNG)).toBe(true);
    expect((await insert(`${base}/big.bin`)).r.body.error.message).toMatch(/larger than the limit/);
    expect((await insert(`${base}/missing.png`)).r.body.error.message).toMatch(/HTTP 404/);
    expect((await insert('ftp://127.0.0.1/x')).r.status).toBe(400);
  });
});
