import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deliveryIdle } from '../../src/integrations/delivery.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { addUser } from '../helpers/people.js';
import { manifest, newOrg, SECRET, startReceiver } from './helpers.js';
import { Integrations } from '../../src/integrations/tables.js';

let s: TestServer;
let org: string;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  s = await startServer({ allowPrivateTunnels: true }); // the receivers are on 127.0.0.1
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());
afterEach(async () => {
  delete process.env.DOCS_DELIVERY_TIMEOUT_MS;
  while (closers.length) await closers.pop()!();
});

async function receiver(status?: () => number, delayMs?: number) {
  const r = await startReceiver(status, delayMs);
  closers.push(r.close);
  return r;
}

const events = async (name: string) => (await s.api('GET', `/v1/integrations/${name}/events`)).body.items;
const trace = async (name: string, id: string) => (await s.api('GET', `/v1/integrations/${name}/events/${id}`)).body.trace.logs.map((l: any) => l.message);

describe('development mode', () => {
  it('delivers each event for real: a POST of the event JSON with the CSP header; outcome in the trace', async () => {
    const rx = await receiver();
    await s.api('POST', '/v1/integrations/dev1', { body: manifest(org, { contentSecurityPolicy: { 'script-src': "'self'", 'img-src': '*' } }) });
    expect((await s.api('PUT', '/v1/integrations/dev1/dev', { body: { tunnelUrl: rx.url } })).status).toBe(204);
    const inst = (await s.api('POST', '/v1/integrations/dev1/installations', { body: { organization: org } })).body;
    await deliveryIdle(s.ctx);
    expect(rx.received).toHaveLength(1);
    const [got] = rx.received;
    const [ev] = await events('dev1');
    expect(got!.body).toEqual(ev.payload);
    expect(got!.body).toMatchObject({ type: 'installation_setup', installationId: inst.id, status: 'active', eventId: ev.id });
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['content-security-policy']).toBe("script-src 'self'; img-src *");
    expect(got!.headers['x-docs-event-id']).toBe(ev.id);
    expect(JSON.stringify(got)).not.toContain(SECRET);
    expect(ev.status).toBe('success');
    const lines = await trace('dev1', ev.id);
    expect(lines.some((l: string) => /^POST http:\/\/127\.0\.0\.1:\d+\/events -> 200 in \d+ ms \(attempt 1\/3\)$/.test(l))).toBe(true);
    expect(lines.at(-1)).toBe('delivered');
  });

  it('retries a failing tunnel at most 3 times, then marks the event failed with each attempt in the trace', async () => {
    const rx = await receiver(() => 503);
    await s.api('POST', '/v1/integrations/dev2', { body: manifest(org, { contentSecurityPolicy: "default-src 'none'" }) });
    await s.api('PUT', '/v1/integrations/dev2/dev', { body: { tunnelUrl: rx.url } });
    await s.api('POST', '/v1/integrations/dev2/installations', { body: { organization: org } });
    await deliveryIdle(s.ctx);
    expect(rx.received).toHaveLength(3);
    expect(rx.received[0]!.headers['content-security-policy']).toBe("default-src 'none'");
    const [ev] = await events('dev2');
    expect(ev.status).toBe('failed');
    const lines = await trace('dev2', ev.id);
    expect(lines.filter((l: string) => / -> 503 in /.test(l))).toHaveLength(3);
    expect(lines.at(-1)).toBe('delivery failed');
  });

  it('does not retry a 4xx answer, and recovers when the tunnel does', async () => {
    let code = 400;
    const rx = await receiver(() => code);
    await s.api('POST', '/v1/integrations/dev3', { body: manifest(org) });
    await s.api('PUT', '/v1/integrations/dev3/dev', { body: { tunnelUrl: rx.url } });
    const { id } = (await s.api('POST', '/v1/integrations/dev3/installations', { body: { organization: org } })).body;
    await deliveryIdle(s.ctx);
    expect(rx.received).toHaveLength(1);
    code = 200;
    await s.api('PATCH', `/v1/integrations/dev3/installations/${id}`, { body: { configuration: { x: 'y' } } });
    await deliveryIdle(s.ctx);
    expect(rx.received).toHaveLength(2);
    expect((await events('dev3')).map((e: any) => e.status)).toEqual(['success', 'failed']);
  });

  it('records a timeout and a refused connection as errors', async () => {
    process.env.DOCS_DELIVERY_TIMEOUT_MS = '100';
    const slow = await receiver(() => 200, 1000);
    await s.api('POST', '/v1/integrations/dev4', { body: manifest(org) });
    await s.api('PUT', '/v1/integrations/dev4/dev', { body: { tunnelUrl: slow.url } });
    await s.api('POST', '/v1/integrations/dev4/installations', { body: { organization: org } });
    await deliveryIdle(s.ctx);
    const [ev] = await events('dev4');
    expect(ev.status).toBe('failed');
    expect((await trace('dev4', ev.id)).filter((l: string) => /timed out after 100 ms/.test(l))).toHaveLength(3);

    const dead = await startReceiver();
    await dead.close(); // nothing listens there any more
    await s.api('POST', '/v1/integrations/dev5', { body: manifest(org) });
    await s.api('PUT', '/v1/integrations/dev5/dev', { body: { tunnelUrl: dead.url } });
    await s.api('POST', '/v1/integrations/dev5/installations', { body: { organization: org } });
    await deliveryIdle(s.ctx);
    const [ev5] = await events('dev5');
    expect(ev5.status).toBe('failed');
    expect((await trace('dev5', ev5.id)).some((l: string) => /ECONNREFUSED/.test(l))).toBe(true);
  });

  it('forwards only the owner organization’s events unless all=true', async () => {
    const rx = await receiver();
    const other = await newOrg(s, 'Customer');
    await s.api('POST', '/v1/integrations/dev6', { body: manifest(org, { visibility: 'public' }) });
    await s.api('PUT', '/v1/integrations/dev6/dev', { body: { tunnelUrl: rx.url } });
    await s.api('POST', '/v1/integrations/dev6/installations', { body: { organization: other } });
    await deliveryIdle(s.ctx);
    expect(rx.received).toHaveLength(0);
    const [ev] = await events('dev6');
    expect((await trace('dev6', ev.id)).at(-1)).toMatch(/forwards only events of the owning organization/);
    await s.api('PUT', '/v1/integrations/dev6/dev', { body: { tunnelUrl: rx.url, all: true } });
    const other2 = await newOrg(s, 'Customer 2');
    await s.api('POST', '/v1/integrations/dev6/installations', { body: { organization: other2 } });
    await deliveryIdle(s.ctx);
    expect(rx.received).toHaveLength(1);
  });

  it('is turned off by DELETE (205): later events are not delivered', async () => {
    const rx = await receiver();
    await s.api('POST', '/v1/integrations/dev7', { body: manifest(org) });
    await s.api('PUT', '/v1/integrations/dev7/dev', { body: { tunnelUrl: rx.url } });
    expect((await s.api('DELETE', '/v1/integrations/dev7/dev')).status).toBe(205);
    await s.api('POST', '/v1/integrations/dev7/installations', { body: { organization: org } });
    await deliveryIdle(s.ctx);
    expect(rx.received).toHaveLength(0);
  });

  it('refuses a tunnel that is not http(s) (400), and non-admins (403) or unknown integrations (404)', async () => {
    await s.api('POST', '/v1/integrations/dev8', { body: manifest(org) });
    const bad = await s.api('PUT', '/v1/integrations/dev8/dev', { body: { tunnelUrl: 'ftp://example.com/x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('tunnelUrl: must be an http or https URL');
    expect((await s.api('PUT', '/v1/integrations/dev8/dev', { body: { tunnelUrl: 'not a url' } })).status).toBe(400);
    expect((await s.api('PUT', '/v1/integrations/dev8/dev', { body: { tunnelUrl: 'http://u:p@localhost/' } })).status).toBe(400);
    const editor = await addUser(s.ctx, org, 'create');
    const r = await s.api('PUT', '/v1/integrations/dev8/dev', { body: { tunnelUrl: 'http://127.0.0.1:1/' }, token: editor.token });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toMatch(/turning on development mode needs the admin role/);
    expect((await s.api('DELETE', '/v1/integrations/dev8/dev', { token: editor.token })).status).toBe(403);
    expect((await s.api('PUT', '/v1/integrations/nope/dev', { body: { tunnelUrl: 'http://127.0.0.1:1/' } })).status).toBe(404);
    expect(await s.ctx.store.read((tx) => tx.find(Integrations, 'name', 'dev8')[0].dev)).toBeUndefined();
  });
});
