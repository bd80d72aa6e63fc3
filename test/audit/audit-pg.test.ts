import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RING } from '../../src/audit/record.js';
import { bearerCall, pgServers } from '../helpers/pg-servers.js';
import { dropSchema, freshSchemaName, postgresOrSkip } from '../helpers/postgres.js';
import { serve } from '../../server/serve.js';
import type { ShardStore } from '../../src/store/shard-store.js';
import { startServer, tempDir, TEST_TOKEN } from '../helpers/server.js';

// The audit log on PostgreSQL (docs/manual/audit.md#recorded-in-the-same-commit): each event is a
// row of the store's `logs` table appended in its write's commit, so the write's shard carries no
// ring; two servers writing one organization list the same events, as the embedded store does.

const pgUrl = await postgresOrSkip();
const TOKEN = 'gb_api_audit_pg';
const call = bearerCall(TOKEN);
const T = 60_000;

const groups: ReturnType<typeof pgServers>[] = [];
afterAll(async () => {
  for (const g of groups) await g.stop();
});
afterEach(() => {
  delete process.env.DOCS_AUDIT_MAX_EVENTS;
});

async function query(sql: string): Promise<any[]> {
  const c = new pg.Client({ connectionString: pgUrl! });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

/** The same writes, alternating between `urls`: an organization, a space, renames, a comment. */
async function scenario(urls: string[], call: (base: string, method: string, path: string, body?: unknown) => Promise<any>) {
  const org = (await call(urls[0]!, 'POST', '/v1/orgs', { title: 'Audited' })).id;
  const space = (await call(urls[0]!, 'POST', `/v1/orgs/${org}/spaces`, { title: 'T0' })).id;
  for (let i = 1; i <= RING + 3; i++) await call(urls[i % urls.length]!, 'PATCH', `/v1/spaces/${space}`, { title: `T${i}` });
  await call(urls.at(-1)!, 'POST', `/v1/spaces/${space}/comments`, { body: { markdown: 'Hi' } });
  return { org, space };
}

const shape = (items: any[]) => items.map((e) => [e.action, e.target.type]);

describe.skipIf(!pgUrl)('the audit log on PostgreSQL', () => {
  it(
    'appends each event as a row of its own: no ring in the space shard, the same list from both servers as from an embedded store',
    async () => {
      const g = pgServers(pgUrl!, 'pgtest_audit', TOKEN);
      groups.push(g);
      const a = await g.start();
      const b = await g.start();
      const { org, space } = await scenario([a.url, b.url], call);
      const schema = new URL(g.store).searchParams.get('schema')!;
      const q = pg.escapeIdentifier(schema);
      const [row] = await query(`SELECT data FROM ${q}.shards WHERE key = 'space/${space}'`);
      expect(Object.keys(JSON.parse(row.data))).not.toContain('auditRecent');
      const logged = await query(`SELECT id FROM ${q}.logs WHERE log = 'log/audit/${org}'`);
      expect(logged.length).toBe(RING + 6); // the organization, the space, the renames, the comment

      const fromA = await call(a.url, 'GET', `/v1/orgs/${org}/audit-events?limit=100`);
      const fromB = await call(b.url, 'GET', `/v1/orgs/${org}/audit-events?limit=100`);
      const local = (list: any) => list.items.map(({ urls: _urls, ...e }: any) => e); // urls name the server asked
      expect(local(fromB)).toEqual(local(fromA));
      expect(fromA.count).toBe(RING + 6);
      const one = await call(b.url, 'GET', `/v1/orgs/${org}/audit-events/${fromA.items[3].id}`);
      expect(one.payload.path).toEqual({ spaceId: space });

      // The embedded store answers the same writes with the same events.
      const e = await startServer();
      try {
        const embedded = await scenario([e.url], bearerCall(TEST_TOKEN));
        const list = (await e.api('GET', `/v1/orgs/${embedded.org}/audit-events?limit=100`)).body;
        expect(shape(list.items)).toEqual(shape(fromA.items));
      } finally {
        await e.stop();
      }
    },
    T,
  );

  it(
    'retention drops the log rows past DOCS_AUDIT_MAX_EVENTS in batches; reads show no more',
    async () => {
      process.env.DOCS_AUDIT_MAX_EVENTS = '5';
      const g = pgServers(pgUrl!, 'pgtest_audit', TOKEN);
      groups.push(g);
      const a = await g.start();
      const b = await g.start();
      const { org } = await scenario([a.url, b.url], call);
      for (const s of [a, b]) {
        const list = await call(s.url, 'GET', `/v1/orgs/${org}/audit-events?limit=100`);
        expect(list.count).toBe(5);
        expect(list.items[0].action).toBe('space.comment.created');
      }
      const q = pg.escapeIdentifier(new URL(g.store).searchParams.get('schema')!);
      const logged = await query(`SELECT id FROM ${q}.logs WHERE log = 'log/audit/${org}'`);
      // A tenth over the bound at most per server (each counts its own), never the RING + 6 written.
      expect(logged.length).toBeLessThanOrEqual(2 * 6);
    },
    T,
  );

  it(
    'prunes without reading the log: PostgreSQL trims it (Store.trimLog) when the memo says a batch may be due',
    async () => {
      process.env.DOCS_AUDIT_MAX_EVENTS = '5';
      const schema = freshSchemaName('pgtest_audit');
      const prev = process.env.DOCS_BOOTSTRAP_TOKEN;
      process.env.DOCS_BOOTSTRAP_TOKEN = TOKEN;
      const s = await serve({ port: 0, store: `${pgUrl}?schema=${schema}`, dataDir: tempDir() }).finally(() => {
        if (prev === undefined) delete process.env.DOCS_BOOTSTRAP_TOKEN;
        else process.env.DOCS_BOOTSTRAP_TOKEN = prev;
      });
      try {
        const backend = (s.ctx.store as ShardStore).backend;
        const loaded: string[] = [];
        const load = backend.load.bind(backend);
        backend.load = (keys) => (loaded.push(...keys), load(keys));
        const trims: number[] = [];
        const inFlight = new Set<Promise<unknown>>();
        const trim = backend.trimLog!.bind(backend);
        backend.trimLog = (log, keep, after) => {
          trims.push(keep);
          const p = trim(log, keep, after);
          inFlight.add(p);
          p.finally(() => inFlight.delete(p)).catch(() => {});
          return p;
        };
        const { org } = await scenario([s.url], call);
        for (let i = 0; i < 20; i++) await call(s.url, 'PATCH', `/v1/orgs/${org}`, { title: `Audited ${i}` });
        // Events recorded while a trim runs are left to the next one (a loaded machine: several):
        // once no trim runs, one more write trims what is over the bound, if anything is.
        const q = pg.escapeIdentifier(schema);
        let rows = Number.POSITIVE_INFINITY;
        for (let extra = 0; extra < 5; extra++) {
          while (inFlight.size) await Promise.allSettled([...inFlight]);
          rows = (await query(`SELECT id FROM ${q}.logs`)).length;
          if (rows <= 6) break;
          await call(s.url, 'PATCH', `/v1/orgs/${org}`, { title: `Audited again ${extra}` });
        }
        expect(rows).toBeLessThanOrEqual(6);
        expect(loaded.filter((k) => k.startsWith('log/'))).toEqual([]);
        // The first event, then once the count may be over 5 + 1 (each trim leaves 5): about every other event.
        expect(trims.length).toBeGreaterThan(5);
        expect(trims.length).toBeLessThan(RING + 26);
        const list = await call(s.url, 'GET', `/v1/orgs/${org}/audit-events?limit=100`);
        expect(list.count).toBe(5);
        expect(list.items.map((e: any) => e.action)).toEqual(Array(5).fill('organization.updated'));
      } finally {
        await s.close();
        await dropSchema(pgUrl!, schema);
      }
    },
    T,
  );
});
