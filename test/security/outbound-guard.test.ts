import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadIpaddr, refusedAddress } from '../../src/kernel/outbound-guard.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Boundary: requests the server makes to a URL a user gives (here insert_files with a `url`, the
// same guarded fetch as OpenAPI sources) reach only public addresses, whatever the form of the
// address. The attack (issue 26, finding 10): `http://[::127.0.0.1]:PORT` (IPv4-compatible IPv6)
// passed the guard; decimal, octal and hex IPv4, trailing dots, mapped IPv6 and names that resolve
// to loopback are tried too. A service on an ephemeral loopback port counts what reaches it.

let s: TestServer;
let target: Server;
let port: number;
let hits = 0;
let space: string;

beforeAll(async () => {
  delete process.env.DOCS_FETCH_ALLOW_PRIVATE;
  s = await startServer();
  target = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'image/png' }).end('x');
  }).listen(0, '127.0.0.1');
  await new Promise((r) => target.once('listening', r));
  port = (target.address() as AddressInfo).port;
  const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Files' } })).body.id;
});
afterAll(async () => {
  target.closeAllConnections();
  target.close();
  await s.stop();
});

const FORMS = (p: number) => [
  `http://[::127.0.0.1]:${p}/f.png`, // IPv4-compatible IPv6 (the parser writes it [::7f00:1])
  `http://[::7f00:1]:${p}/f.png`,
  `http://[::ffff:127.0.0.1]:${p}/f.png`, // IPv4-mapped
  `http://[::ffff:7f00:1]:${p}/f.png`,
  `http://2130706433:${p}/f.png`, // decimal
  `http://0x7f.1:${p}/f.png`, // hex, short form
  `http://0x7f000001:${p}/f.png`,
  `http://0177.0.0.1:${p}/f.png`, // octal
  `http://127.1:${p}/f.png`,
  `http://127.0.0.1.:${p}/f.png`, // trailing dot
  `http://0.0.0.0:${p}/f.png`,
  `http://[::]:${p}/f.png`,
  `http://[::1]:${p}/f.png`,
  `http://[64:ff9b::7f00:1]:${p}/f.png`, // NAT64 of 127.0.0.1
  `http://[2002:7f00:1::]:${p}/f.png`, // 6to4 of 127.0.0.1
  `http://[::10.0.0.1]:${p}/f.png`, // IPv4-compatible private
  `http://[::169.254.169.254]:${p}/latest/meta-data`, // IPv4-compatible link-local (cloud metadata)
  `http://localhost:${p}/f.png`, // names: judged by what they resolve to
  `http://LOCALHOST:${p}/f.png`,
];

describe('the fetch guard normalizes every address form before deciding', () => {
  it('refuses each form of a loopback or private address with 400 naming the field and the range; the service is never reached', async () => {
    for (const url of FORMS(port)) {
      const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Files' } })).body;
      const r = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, {
        body: { changes: [{ operation: 'insert_files', files: [{ name: 'f.png', url }] }] },
      });
      expect(r.status, url).toBe(400);
      expect(r.body.error.message, url).toMatch(/^changes\[0\]\.files\[0\]\.url: .*is an? \w+ address: refused/);
      expect((await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}/content/files`)).body.items, url).toEqual([]);
    }
    expect(hits).toBe(0);
  });

  it('judges an IPv4 address carried in IPv6 (mapped or compatible) as that IPv4 address', async () => {
    const ip = await loadIpaddr();
    expect(refusedAddress(ip, '::7f00:1')).toBe('::7f00:1 (127.0.0.1) is a loopback address');
    expect(refusedAddress(ip, '::a00:1')).toBe('::a00:1 (10.0.0.1) is a private address');
    expect(refusedAddress(ip, '::ffff:a9fe:a9fe')).toBe('::ffff:a9fe:a9fe (169.254.169.254) is a linkLocal address');
    expect(refusedAddress(ip, '::1')).toBe('::1 is a loopback address');
    expect(refusedAddress(ip, '::')).toBe(':: is a unspecified address');
    // Public addresses pass, in either form.
    for (const a of ['93.184.215.14', '::5db8:d70e', '::ffff:93.184.215.14', '2606:4700:4700::1111']) expect(refusedAddress(ip, a), a).toBeUndefined();
  });
});
