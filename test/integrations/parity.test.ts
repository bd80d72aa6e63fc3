import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/auth/bootstrap.js';
import { deliveryIdle } from '../../src/integrations/delivery.js';
import type { Context } from '../../src/kernel/context.js';
import { DocsError } from '../../src/kernel/errors.js';
import { openContext } from '../../src/open.js';
import { HttpTransport } from '../../src/transport/http.js';
import { LocalTransport } from '../../src/transport/local.js';
import type { Transport } from '../../src/transport/types.js';
import { startServer, TEST_TOKEN, type TestServer } from '../helpers/server.js';
import { manifest, startReceiver } from './helpers.js';

/** One integrations scenario (with development-mode delivery) as a list of observable outcomes. */
async function scenario(t: Transport, ctx: Context, tunnelUrl: string) {
  const out: unknown[] = [];
  const step = async (fn: () => Promise<unknown>) => {
    try {
      const r: any = await fn();
      out.push(r && typeof r === 'object' && 'status' in r ? { status: r.status, body: r.body } : r);
    } catch (e) {
      out.push(e instanceof DocsError ? { kind: e.kind, message: e.message } : String(e));
    }
  };
  const org = ((await t.call('listOrganizationsForAuthenticatedUser')).body as any).items[0].id;
  const path = { integrationName: 'parity' };
  await step(() =>
    t.call('publishIntegration', { path, body: manifest(org, { configurations: { account: { properties: { c: { type: 'string' } }, required: ['c'] } } }) }),
  );
  await step(() => t.call('publishIntegration', { path, body: manifest(org, { title: 'x' }) }));
  await step(() => t.call('publishIntegration', { path, body: manifest('nowhere') }));
  await step(() => t.call('setIntegrationDevelopmentMode', { path, body: { tunnelUrl } }));
  await step(() => t.call('setIntegrationDevelopmentMode', { path, body: { tunnelUrl: 'file:///etc/passwd' } }));
  const inst = await t.call('installIntegration', { path, body: { organization: org } });
  out.push({ status: inst.status, body: inst.body });
  const id = (inst.body as any).id;
  await step(() => t.call('installIntegration', { path, body: { organization: org } }));
  await step(() => t.call('updateIntegrationInstallation', { path: { ...path, installationId: id }, body: { configuration: { c: 'v' } } }));
  await deliveryIdle(ctx);
  await step(() => t.call('listIntegrationInstallations', { path }));
  await step(() => t.call('listIntegrationSpaceInstallations', { path, query: { extended: true } }));
  const events = (await t.call('listIntegrationEvents', { path })).body as any;
  out.push(events);
  for (const e of events.items) await step(() => t.call('getIntegrationEvent', { path: { ...path, eventId: e.id } }));
  await step(() => t.call('uninstallIntegration', { path: { ...path, installationId: id } }));
  await deliveryIdle(ctx);
  await step(() => t.call('uninstallIntegration', { path: { ...path, installationId: id } }));
  await step(() => t.call('disableIntegrationDevelopmentMode', { path }));
  await step(() => t.call('listIntegrations', { query: { owner: org } }));
  await step(() => t.call('unpublishIntegration', { path }));
  await step(() => t.call('unpublishIntegration', { path }));
  await step(() => t.call('getIntegrationByName', { path }));
  return out;
}

/** Ids, times, durations, ports and the base URL differ between two runs; everything else must not. */
function normalize(value: unknown, base: string): unknown {
  const ids = new Map<string, string>();
  const walk = (v: any): any => {
    if (typeof v === 'string') {
      let s = v
        .split(base)
        .join('{base}')
        .replace(/127\.0\.0\.1:\d+/g, '{tunnel}')
        .replace(/in \d+ ms/g, 'in {ms}');
      s = s.replace(/\b[A-Za-z0-9]{20}\b/g, (id) => {
        if (!ids.has(id)) ids.set(id, `{id${ids.size}}`);
        return ids.get(id)!;
      });
      return /^\d{4}-\d\d-\d\dT/.test(s) ? '{time}' : s;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value);
}

describe('Integrations transport parity', () => {
  let server: TestServer;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    server = await startServer({ allowPrivateTunnels: true }); // the receiver is on 127.0.0.1
    rx = await startReceiver();
  });
  afterAll(async () => {
    await server.stop();
    await rx.close();
  });

  it('gives the same results in-process and over HTTP, deliveries included', async () => {
    const ctx = await openContext(undefined, { baseUrl: 'http://local.test' });
    const boot = await bootstrap(ctx, 'gb_api_local');
    const local = await LocalTransport.as(ctx, undefined, { userId: boot!.userId }, 'memory');
    local.runWorkers();
    try {
      const a = normalize(await scenario(local, ctx, rx.url), 'http://local.test');
      const b = normalize(await scenario(new HttpTransport(server.url, TEST_TOKEN), server.ctx, rx.url), server.url);
      expect(a).toEqual(b);
      expect(rx.received).toHaveLength(6); // 3 events each way: setup (pending), setup (active), deleted
      const text = JSON.stringify(a);
      for (const kind of ['conflict', 'invalid', 'not_found']) expect(text).toContain(`"kind":"${kind}"`);
      expect(text).toContain('"status":205');
      expect(text).toContain('"status":204');
    } finally {
      await local.close();
    }
  });
});
