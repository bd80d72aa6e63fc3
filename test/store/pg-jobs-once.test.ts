import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postgresOrSkip } from '../helpers/postgres.js';
import { pgServers } from '../helpers/pg-servers.js';

// Background jobs with two `docs serve` processes on one PostgreSQL store: integration events
// are delivered by whichever process claims them, each exactly once. The first server makes the
// events and starts delivering them to a receiver that holds its answers; the second starts
// meanwhile and takes up the pending ones (a server's start resumes waiting work), so both race
// for the same jobs, including those the first is delivering at that moment.

const pgUrl = await postgresOrSkip();
const TOKEN = 'gb_api_jobs_once';
const EVENTS = 24;

describe.skipIf(!pgUrl)('background jobs with two docs serve processes on one PostgreSQL store', () => {
  const servers = pgServers(pgUrl!, 'jobs_once', TOKEN);
  // The receiver is on 127.0.0.1, the tunnel set over HTTP: allowed by the servers' flag.
  const start = () => servers.start(['--allow-private-tunnels']);
  afterAll(() => servers.stop());

  it(`delivers each of ${EVENTS} events once while both servers take up the pending ones`, async () => {
    // Answers are held until `release()`: the first server's deliveries are in flight when the second starts.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const received: string[] = [];
    const receiver = createServer((req, res) => {
      received.push(req.headers['x-docs-event-id'] as string);
      req.resume();
      void held.then(() => res.writeHead(200).end('ok'));
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const rx = { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events` };
    try {
      const a = await start();
      const call = async (base: string, method: string, path: string, body?: unknown) => {
        const r = await fetch(base + path, {
          method,
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await r.text();
        return { status: r.status, body: text ? JSON.parse(text) : undefined };
      };
      const org = (await call(a.url, 'GET', '/v1/orgs')).body.items[0].id;
      const published = await call(a.url, 'POST', '/v1/integrations/jobs-once', {
        organization: org,
        title: 'Jobs',
        description: 'd',
        script: 'export default {}',
        scopes: [],
      });
      expect(published.status, JSON.stringify(published.body)).toBeLessThan(300);
      expect((await call(a.url, 'PUT', '/v1/integrations/jobs-once/dev', { tunnelUrl: rx.url })).status).toBe(204);
      const inst = await call(a.url, 'POST', '/v1/integrations/jobs-once/installations', { organization: org });
      expect(inst.status).toBe(201);
      for (let i = 1; i < EVENTS; i++) {
        const r = await call(a.url, 'PATCH', `/v1/integrations/jobs-once/installations/${inst.body.id}`, { configuration: { n: i } });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
      }
      // A delivers 4 at a time, held: the rest are pending when B starts (and B tries A's 4 too).
      const b = await start();
      await new Promise((r) => setTimeout(r, 1_000));
      release();
      // Every event delivered (an event's status says `success` while it waits: see the trace),
      // then a moment for any second delivery to show.
      const until = Date.now() + 45_000;
      while (new Set(received).size < EVENTS && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      await new Promise((r) => setTimeout(r, 1_500));
      const events: any[] = (await call(b.url, 'GET', '/v1/integrations/jobs-once/events?limit=100')).body.items;
      expect(events).toHaveLength(EVENTS);
      for (const e of events) {
        const trace = (await call(a.url, 'GET', `/v1/integrations/jobs-once/events/${e.id}`)).body.trace.logs.map((l: any) => l.message);
        expect(trace.at(-1), e.id).toBe('delivered');
      }
      const times = new Map<string, number>();
      for (const id of received) times.set(id, (times.get(id) ?? 0) + 1);
      expect(
        [...times].filter(([, n]) => n !== 1),
        'events delivered more than once',
      ).toEqual([]);
      expect(times.size).toBe(EVENTS);
    } finally {
      release();
      receiver.closeAllConnections();
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  }, 90_000);
});
