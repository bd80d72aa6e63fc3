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
    withFreshSchema(
      pgUrl!,
      async (schema) => {
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
      },
      'pgoutage',
    );

  it(
    'survives its idle pool connections, its listener and a job claim being terminated',
    async () => {
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
    },
    T,
  );

  it(
    'answers unavailable naming the store while cut, in and out of a transaction, and resumes once restored',
    async () => {
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
        const failures = [
          await blocked!,
          await rejection(b.load(['k'])),
          await rejection(b.commit(one('x', page('x', 'x')), exp({ x: 0 }))),
          await rejection(b.claim('job')),
        ];
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
    },
    T,
  );
});

// Two `docs serve` processes on one schema, through the proxy, under write load; the proxy is cut
// for a few seconds, then restored.
const CLIENTS = 8;
const CUT_AT_MS = 2_000;
const CUT_FOR_MS = 3_000;
const LOAD_MS = 8_000;
const MAX_WRITES = 3_000;
const REQUEST_TIMEOUT_MS = 12_000;
const TOKEN = 'gb_api_pg_outage';

describe.skipIf(!pgUrl)('two docs serve processes when PostgreSQL goes away', () => {
  let proxy: PgProxy;
  let servers: ReturnType<typeof pgServers>;
  afterAll(async () => {
    await proxy?.restore();
    await servers?.stop();
    await proxy?.close();
  });

  it('answer 503 naming the store while it is away, stay up, resume by themselves, and lose no acknowledged write', async () => {
    proxy = await pgProxy(pgUrl!);
    servers = pgServers(pgUrl!, 'outage', TOKEN, proxy.url);
    const a = await servers.start();
    const b = await servers.start();
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    type Answer = { status: number; body: any } | { lost: string };
    const call = async (base: string, method: string, path: string, body?: unknown): Promise<Answer> => {
      try {
        const r = await fetch(base + path, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const text = await r.text();
        return { status: r.status, body: text ? JSON.parse(text) : undefined };
      } catch (e) {
        return { lost: String((e as Error).message) };
      }
    };
    const org = ((await call(a.url, 'GET', '/v1/orgs')) as any).body.items[0].id as string;
    const storeNamed = new RegExp(`PostgreSQL store 127\\.0\\.0\\.1:${proxy.port}/test \\(schema outage_`);

    const acked = new Map<string, string>(); // space id -> title
    const unexpected: string[] = [];
    let unavailable = 0;
    let writes = 0;
    const t0 = Date.now();
    const now = () => Date.now() - t0;
    let cutAt = Infinity;
    let restoredAt = Infinity;
    const answered = (what: string, r: Answer, ok: (s: number) => boolean) => {
      if ('lost' in r) unexpected.push(`${what}: no answer (${r.lost})`);
      else if (r.status === 503 && storeNamed.test(r.body?.error?.message ?? '')) unavailable++;
      else if (!ok(r.status)) unexpected.push(`${what} -> ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    };

    const client = async (n: number) => {
      const server = n % 2 === 0 ? a : b;
      for (let seq = 0; now() < LOAD_MS && writes < MAX_WRITES; seq++) {
        writes++;
        const title = `S ${n}-${seq}`;
        const r = await call(server.url, 'POST', `/v1/orgs/${org}/spaces`, { title });
        answered(`POST spaces (${title})`, r, (s) => s === 201);
        if (!('lost' in r) && r.status === 201) acked.set(r.body.id, title);
        if (seq % 4 === 3 && acked.size) {
          const id = [...acked.keys()][Math.floor(Math.random() * acked.size)]!;
          answered(`GET space ${id}`, await call(server.url, 'GET', `/v1/spaces/${id}`), (s) => s === 200);
        }
        // Without PostgreSQL the answers are immediate: pace the retries.
        if (now() >= cutAt && now() < restoredAt) await sleep(50);
      }
    };

    // /health of both servers through the load: what each said while cut, and when it was ok again.
    const health = { a: [] as string[], b: [] as string[] };
    const healthyAgain = { a: Infinity, b: Infinity };
    let loading = true;
    const watch = async (name: 'a' | 'b', base: string) => {
      while (loading) {
        const r = await fetch(`${base}/health`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }).then(
          async (res) => ({ status: res.status, body: await res.json() }),
          (e) => ({ status: 0, body: String(e) }),
        );
        if (now() > cutAt && restoredAt === Infinity) health[name].push(`${r.status} ${r.body?.status} ${r.body?.error?.message ?? ''}`);
        if (now() > restoredAt && r.status === 200) healthyAgain[name] = Math.min(healthyAgain[name], now() - restoredAt);
        await sleep(100);
      }
    };

    const cutter = (async () => {
      await sleep(CUT_AT_MS);
      cutAt = now();
      await proxy.cut();
      await sleep(CUT_FOR_MS);
      await proxy.restore();
      restoredAt = now();
    })();
    const watching = Promise.all([watch('a', a.url), watch('b', b.url)]);
    await Promise.all([...Array.from({ length: CLIENTS }, (_, n) => client(n)), cutter]);
    loading = false;
    await watching;

    // Both processes are alive and never crashed.
    for (const s of [a, b]) {
      expect(s.child.exitCode, s.errors()).toBeNull();
      expect(s.child.signalCode).toBeNull();
      expect(s.errors()).not.toMatch(/Unhandled|Connection terminated/);
    }
    expect(unexpected.slice(0, 10)).toEqual([]);
    expect(unavailable, 'requests answered 503 while PostgreSQL was away').toBeGreaterThan(0);
    for (const name of ['a', 'b'] as const) {
      expect(
        health[name].some((h) => h.startsWith('503 unavailable') && storeNamed.test(h)),
        `/health of ${name} while cut: ${health[name].slice(0, 3).join('; ')}`,
      ).toBe(true);
    }

    // Service is back on both without anyone's help: /health, a write and a read on each.
    for (const [name, s] of [
      ['a', a],
      ['b', b],
    ] as const) {
      await waitFor(`${name} to be healthy again`, async () => (await fetch(`${s.url}/health`)).status === 200, 10_000);
      const r = await call(s.url, 'POST', `/v1/orgs/${org}/spaces`, { title: `After ${name}` });
      expect('lost' in r ? r : r.status).toBe(201);
      acked.set((r as any).body.id, `After ${name}`);
    }

    // Every acknowledged write is there, as both servers see it. A write the other server just
    // acknowledged reaches this one's cache through PostgreSQL's notification, a moment later: each
    // server is given 10 s to show them all (a write lost, or a notification never heard, still fails).
    for (const s of [a, b]) {
      let missing: [string, string][] = [];
      const deadline = Date.now() + 10_000;
      do {
        const listed = new Map<string, string>();
        for (let page: string | undefined; ; ) {
          const r = await call(s.url, 'GET', `/v1/orgs/${org}/spaces?limit=1000${page ? `&page=${encodeURIComponent(page)}` : ''}`);
          if ('lost' in r || r.status !== 200) throw new Error(`listing spaces: ${JSON.stringify(r).slice(0, 300)}`);
          for (const row of r.body.items) listed.set(row.id, row.title);
          page = r.body.next?.page;
          if (!page) break;
        }
        missing = [...acked].filter(([id, title]) => listed.get(id) !== title);
        if (missing.length) await new Promise((r) => setTimeout(r, 200));
      } while (missing.length && Date.now() < deadline);
      expect(missing.slice(0, 10)).toEqual([]);
    }
    console.log(
      `PostgreSQL outage: ${writes} writes by ${CLIENTS} clients, ${acked.size} acknowledged, ${unavailable} answered 503; ` +
        `cut at ${cutAt} ms for ${CUT_FOR_MS} ms; /health ok again ${healthyAgain.a} ms (a) and ${healthyAgain.b} ms (b) after the restore`,
    );
  }, 50_000);
});
