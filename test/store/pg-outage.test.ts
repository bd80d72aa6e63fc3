import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DocsError } from '../../src/kernel/errors.js';
import type { ShardData } from '../../src/store/backend.js';
import { PgBackend } from '../../src/store/pg-backend.js';
import { pgProxy, type PgProxy } from '../helpers/pg-proxy.js';
import { pgServers } from '../helpers/pg-servers.js';
import { postgresOrSkip, withFreshSchema } from '../helpers/postgres.js';

// PostgreSQL going away and coming back, without touching the machine's PostgreSQL: everything
// reaches it through a loopback proxy (test/helpers/pg-proxy.ts) that the test cuts (every
// connection destroyed, new ones refused) and restores. Nothing may end the process (an 'error'
// event of a `pg` client without a listener does); what needs the store answers 503 naming it;
// service comes back by itself.

const pgUrl = await postgresOrSkip();
const T = 20_000;

const page = (id: string, title: string): ShardData => ({ pages: { [id]: { id, title } } });
const one = (k: string, d: ShardData | null) => new Map([[k, d]]);
const exp = (entries: Record<string, number>) => new Map(Object.entries(entries));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got !== undefined && got !== (false as any)) return got;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** The error a promise rejects with (fails when it resolves). */
async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => expect.unreachable('resolved'),
    (e) => e,
  );
}

/** Ends the backends of PostgreSQL connected from these proxy ports (as an administrator's pg_terminate_backend would). */
async function terminate(ports: number[]): Promise<number> {
  const c = new pg.Client({ connectionString: pgUrl! });
  c.on('error', () => {});
  await c.connect();
  try {
    const r = await c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE client_port = ANY($1::int[]) AND pid <> pg_backend_pid()`, [ports]);
    return r.rowCount ?? 0;
  } finally {
    await c.end().catch(() => {});
  }
}

describe.skipIf(!pgUrl)('PgBackend when PostgreSQL goes away', () => {
  let proxy: PgProxy;
  const withBackend = (fn: (b: PgBackend, schema: string) => Promise<void>) =>
    withFreshSchema(pgUrl!, async (schema) => {
      proxy = await pgProxy(pgUrl!);
      const b = new PgBackend(proxy.url, { schema, poolSize: 4, connectTimeoutMs: 3_000, reconnectMinMs: 20, reconnectMaxMs: 200 });
      try {
        await b.open();
        await fn(b, schema);
      } finally {
        await proxy.restore();
        await b.close();
        await proxy.close();
      }
    }, 'pgoutage');

  it('survives its idle pool connections, its listener and a job claim being terminated', async () => {
    await withBackend(async (b) => {
      const heard: string[][] = [];
      b.subscribe((keys) => heard.push(keys));
      await b.whenListening();
      await Promise.all([b.load(['a']), b.load(['b']), b.load(['c'])]); // idle connections in the pool
      const claim = await b.claim('job-1');
      expect(claim).not.toBeNull();
      const ports = proxy.upstreamPorts();
      expect(await terminate(ports)).toBeGreaterThanOrEqual(3);
      // Once the proxy saw them close, the pool has heard of it (its next request takes a new
      // connection; one taken in the instant between would fail once, with a 503).
      await waitFor('the terminated connections to close', () => !proxy.upstreamPorts().some((p) => ports.includes(p)));
      await sleep(20);
      // The listener said to drop everything (commits go unheard until it is back), and reconnects.
      await waitFor('the listener to say so', () => heard.some((k) => k[0] === '*'));
      await b.whenListening();
      await b.commit(one('k', page('p', 'after')), exp({ k: 0 }));
      expect((await b.load(['k'])).get('k')!.version).toBe(1);
      await claim!.release(); // its connection is gone: nothing to release, no error
      const again = await b.claim('job-1');
      expect(again).not.toBeNull();
      await again!.release();
      expect(await b.health()).toEqual({ ok: true });
    });
  }, T);

  it('answers unavailable naming the store while cut, in and out of a transaction, and resumes once restored', async () => {
    await withBackend(async (b, schema) => {
      const heard: string[][] = [];
      b.subscribe((keys) => heard.push(keys));
      await b.whenListening();
      await b.commit(one('k', page('p', 'v1')), exp({ k: 0 }));
      // A commit waiting on a lock another connection holds: its connection dies mid-transaction.
      const holder = new pg.Client({ connectionString: pgUrl! });
      holder.on('error', () => {});
      await holder.connect();
      let blocked: Promise<unknown> | undefined;
      try {
        await holder.query('BEGIN');
        await holder.query(`SELECT 1 FROM ${pg.escapeIdentifier(schema)}.shards WHERE key = 'k' FOR UPDATE`);
        blocked = rejection(b.commit(one('k', page('p', 'v2')), exp({ k: 1 })));
        await sleep(200);
        await proxy.cut();
      } finally {
        await holder.query('ROLLBACK').catch(() => {});
        await holder.end().catch(() => {});
      }
      const failures = [await blocked!, await rejection(b.load(['k'])), await rejection(b.commit(one('x', page('x', 'x')), exp({ x: 0 }))), await rejection(b.claim('job'))];
      for (const e of failures) {
        expect(e).toBeInstanceOf(DocsError);
        expect((e as DocsError).kind).toBe('unavailable');
        expect((e as DocsError).message).toContain(`PostgreSQL store 127.0.0.1:${proxy.port}/test (schema ${schema})`);
      }
      // Cut before its COMMIT was sent: known not to be made (shard-store.ts words the answer so).
      expect((failures[0] as { outcomeUnknown?: boolean }).outcomeUnknown).toBeFalsy();
      const down = await b.health();
      expect(down.ok).toBe(false);
      expect(!down.ok && down.message).toContain(`PostgreSQL store 127.0.0.1:${proxy.port}/test (schema ${schema})`);
      await sleep(300); // the listener tries again meanwhile, and fails
      await proxy.restore();
      await waitFor('the store to answer again', async () => (await b.health()).ok);
      expect((await b.load(['k'])).get('k')!.version).toBe(1); // the cut commit was not made
      await b.commit(one('k', page('p', 'v2')), exp({ k: 1 }));
      expect(heard.some((k) => k[0] === '*')).toBe(true);
    });
  }, T);
});
