import { createServer, type Server } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryIdle } from '../../src/integrations/delivery.js';
import { docs, docsAsync } from '../helpers/cli.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { manifest, startReceiver } from '../integrations/helpers.js';

// Boundary: the integration development tunnel reaches loopback and private addresses only for
// the instance owner on their own machine (the in-process CLI, or its calls forwarded to the
// server holding the data directory), or on a server started with --allow-private-tunnels.
// The attack (issue 26, finding 6): any user makes an organization and an integration, points
// its tunnel at 127.0.0.1:PORT, installs it, and reads in the event trace whether PORT is open
// (`other side closed`) or closed (`ECONNREFUSED`). Ports here are ephemeral ones this test opens.

/** A TCP port that accepts and closes at once (a service that is not HTTP), and counts connections. */
async function openPort() {
  let connections = 0;
  const server: Server = createServer((sock) => (connections++, sock.destroy())).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { port: (server.address() as any).port as number, connections: () => connections, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A port nothing listens on (opened, then closed). */
async function closedPort() {
  const p = await openPort();
  await p.close();
  return p.port;
}

const trace = async (s: TestServer, token: string, name: string): Promise<{ status: string; lines: string[] }> => {
  const [ev] = (await s.api('GET', `/v1/integrations/${name}/events`, { token })).body.items;
  return {
    status: ev.status as string,
    lines: (await s.api('GET', `/v1/integrations/${name}/events/${ev.id}`, { token })).body.trace.logs.map((l: any) => l.message as string),
  };
};

describe('a user who is not the instance owner, on a server without --allow-private-tunnels', () => {
  let s: TestServer;
  let attacker: { token: string };
  let org: string;
  let target: Awaited<ReturnType<typeof openPort>>;
  beforeAll(async () => {
    s = await startServer();
    target = await openPort();
    attacker = await addUser(s.ctx);
    const made = await s.api('POST', '/v1/orgs', { token: attacker.token, body: { title: 'Probe Org' } });
    expect(made.status).toBe(201);
    org = made.body.id;
  });
  afterAll(async () => {
    await target.close();
    await s.stop();
  });

  it('cannot point the tunnel at a loopback or private address, in any form: 400 naming the rule, nothing set', async () => {
    expect((await s.api('POST', '/v1/integrations/probe', { token: attacker.token, body: manifest(org) })).status).toBe(200);
    const p = target.port;
    for (const url of [
      `http://127.0.0.1:${p}/`,
      `http://[::127.0.0.1]:${p}/`,
      `http://[::ffff:127.0.0.1]:${p}/`,
      `http://2130706433:${p}/`,
      `http://0x7f.1:${p}/`,
      `http://0177.0.0.1:${p}/`,
      `http://127.0.0.1.:${p}/`,
      `http://[::1]:${p}/`,
      'http://10.0.0.1/',
      'http://169.254.169.254/',
    ]) {
      const r = await s.api('PUT', '/v1/integrations/probe/dev', { token: attacker.token, body: { tunnelUrl: url } });
      expect(r.status, url).toBe(400);
      expect(r.body.error.message, url).toMatch(/^tunnelUrl: .* is an? \w+ address: .*--allow-private-tunnels/);
    }
    // The owner too, over HTTP with an API token: the rule is about the machine, not the role.
    expect((await s.api('POST', '/v1/integrations/owners', { body: manifest((await s.api('GET', '/v1/orgs')).body.items[0].id) })).status).toBe(200);
    expect((await s.api('PUT', '/v1/integrations/owners/dev', { body: { tunnelUrl: `http://127.0.0.1:${p}/` } })).status).toBe(400);
    expect(target.connections()).toBe(0);
  });

  it('a host name resolving to loopback is refused at delivery, once, and an open port reads the same as a closed one', async () => {
    const closed = await closedPort();
    const seen: string[][] = [];
    for (const [name, port] of [
      ['probe-open', target.port],
      ['probe-closed', closed],
    ] as const) {
      expect((await s.api('POST', `/v1/integrations/${name}`, { token: attacker.token, body: manifest(org) })).status).toBe(200);
      expect((await s.api('PUT', `/v1/integrations/${name}/dev`, { token: attacker.token, body: { tunnelUrl: `http://localhost:${port}/` } })).status).toBe(
        204,
      );
      expect((await s.api('POST', `/v1/integrations/${name}/installations`, { token: attacker.token, body: { organization: org } })).status).toBe(201);
      await deliveryIdle(s.ctx);
      const t = await trace(s, attacker.token, name);
      expect(t.status).toBe('failed');
      // One attempt, not sent, no network error of the port in it.
      expect(t.lines.filter((l) => l.startsWith('POST '))).toEqual([
        expect.stringMatching(/^POST http:\/\/localhost:\d+\/ not sent \(attempt 1\/3\): localhost: 127\.0\.0\.1 is a loopback address: refused/),
      ]);
      expect(t.lines.join('\n')).not.toMatch(/ECONNREFUSED|other side closed|socket/i);
      seen.push(t.lines.map((l) => l.replace(String(port), 'PORT')));
    }
    expect(seen[0]).toEqual(seen[1]);
    expect(target.connections()).toBe(0);
  });
});

describe('the instance owner on their own machine', () => {
  const dir = tempDir('docs-tunnel-');
  const files = tempDir('docs-tunnel-files-');
  const env = { DOCS_DATA: dir, DOCS_BOOTSTRAP_TOKEN: 'gb_api_tunnel_owner' };
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    rx = await startReceiver();
    writeFileSync(join(files, 'integration.json'), JSON.stringify({ title: 'Local', description: 'Mine', scopes: [] }));
    writeFileSync(join(files, 'index.js'), 'export default {}');
  });
  afterAll(() => rx.close());

  it('in-process CLI: sets a loopback tunnel and events reach it; through docs serve holding the directory too', async () => {
    const publish = async (name: string) =>
      await docs(['integrations', 'publish', name, '--manifest', join(files, 'integration.json'), '--script', join(files, 'index.js')], env);
    expect((await publish('local')).status).toBe(0);
    const dev = await docs(['integrations', 'dev', 'local', '--tunnel', rx.url], env);
    expect(dev.status, dev.stderr).toBe(0);
    const inst = await docsAsync(['integrations', 'install', 'local'], env);
    expect(inst.status, inst.stderr).toBe(0);
    expect(rx.received).toHaveLength(1);

    // The same directory served: the CLI's calls are forwarded with the server's session token.
    const s = await startServer({ dataDir: dir });
    try {
      expect(
        (await docsAsync(['integrations', 'publish', 'forwarded', '--manifest', join(files, 'integration.json'), '--script', join(files, 'index.js')], env))
          .status,
      ).toBe(0);
      const fwd = await docsAsync(['integrations', 'dev', 'forwarded', '--tunnel', rx.url], env);
      expect(fwd.status, fwd.stderr).toBe(0);
      // Installed by anyone, delivered by the server: the owner's choice was kept with the URL.
      const org = (await s.api('GET', '/v1/orgs', { token: 'gb_api_tunnel_owner' })).body.items[0].id;
      expect((await s.api('POST', '/v1/integrations/forwarded/installations', { token: 'gb_api_tunnel_owner', body: { organization: org } })).status).toBe(201);
      await deliveryIdle(s.ctx);
      expect(rx.received).toHaveLength(2);
      // The same owner with an API token over HTTP is not on their machine: refused.
      expect((await s.api('PUT', '/v1/integrations/forwarded/dev', { token: 'gb_api_tunnel_owner', body: { tunnelUrl: rx.url } })).status).toBe(400);
    } finally {
      await s.stop();
    }
  }, 60_000);
});

describe('a server started with --allow-private-tunnels', () => {
  it("lets anyone's tunnel reach loopback (the operator's explicit choice)", async () => {
    const s = await startServer({ allowPrivateTunnels: true });
    const rx = await startReceiver();
    try {
      const user = await addUser(s.ctx);
      const org = (await s.api('POST', '/v1/orgs', { token: user.token, body: { title: 'Dev Org' } })).body.id;
      await s.api('POST', '/v1/integrations/allowed', { token: user.token, body: manifest(org) });
      expect((await s.api('PUT', '/v1/integrations/allowed/dev', { token: user.token, body: { tunnelUrl: rx.url } })).status).toBe(204);
      await s.api('POST', '/v1/integrations/allowed/installations', { token: user.token, body: { organization: org } });
      await deliveryIdle(s.ctx);
      expect(rx.received).toHaveLength(1);
    } finally {
      await rx.close();
      await s.stop();
    }
  });
});
