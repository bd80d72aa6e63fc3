import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShardConflict, type ShardData } from '../../src/store/backend.js';
import { PgBackend } from '../../src/store/pg-backend.js';
import type { TableSpec } from '../../src/store/port.js';
import { ShardStore } from '../../src/store/shard-store.js';
import { postgresOrSkip, withFreshSchema } from '../helpers/postgres.js';

// Group commit on PostgreSQL (docs/manual/performance.md, "Writes that keep up"): each process
// commits the writes queued meanwhile as one transaction, sent in two round trips. A write that
// fails in a batch fails alone; two processes writing the same rows never lose or double-apply one.

const url = await postgresOrSkip();
const T = 30_000;

const SPECS: TableSpec[] = [{ name: 'counters', shard: (r) => `c/${r.id}`, indexes: [], locateId: (id) => `c/${id}` }];
const page = (id: string, title: string): ShardData => ({ pages: { [id]: { id, title } } });

async function withBackends(n: number, fn: (...b: PgBackend[]) => Promise<void>): Promise<void> {
  await withFreshSchema(
    url!,
    async (schema) => {
      const backends = Array.from({ length: n }, () => new PgBackend(url!, { schema, poolSize: 4, connectTimeoutMs: 5_000 }));
      try {
        for (const b of backends) await b.open();
        await fn(...backends);
      } finally {
        await Promise.all(backends.map((b) => b.close()));
      }
    },
    'pggroup',
  );
}

/** The statements sent to PostgreSQL (one per round trip) while `fn` runs. */
async function roundTrips(fn: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const query = pg.Client.prototype.query;
  const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: any[]) {
    sent.push(
      String(typeof args[0] === 'string' ? args[0] : args[0]?.text)
        .trim()
        .split(/\s+/)[0],
    );
    return (query as any).apply(this, args);
  });
  try {
    await fn().catch(() => {});
  } finally {
    spy.mockRestore();
  }
  return sent;
}

afterEach(() => vi.restoreAllMocks());

describe.skipIf(!url)('group commit on PostgreSQL', () => {
  it(
    'commits in two round trips (the locks, check and write in one message, then COMMIT), a conflict in two',
    async () => {
      await withBackends(1, async (b) => {
        await b.commit(new Map([['k', page('p', 'v1')]]), new Map([['k', 0]]));
        const ok = await roundTrips(() =>
          b.commit(
            new Map([
              ['k', page('p', 'v2')],
              ['j', page('q', 'v1')],
            ]),
            new Map([['k', 1]]),
          ),
        );
        expect(ok).toEqual(['BEGIN;', 'COMMIT']);
        const refused = await roundTrips(() => b.commit(new Map([['k', page('p', 'v3')]]), new Map([['k', 1]])));
        expect(refused).toEqual(['BEGIN;', 'ROLLBACK']);
        const loaded = await b.load(['k', 'j']);
        expect(loaded.get('k')).toMatchObject({ version: 2, data: page('p', 'v2') });
        expect(loaded.get('j')).toMatchObject({ version: 1, data: page('q', 'v1') });
      });
    },
    T,
  );

  it(
    'plans the commit statement once per connection, not at every commit, and prepares it again on a new connection',
    async () => {
      await withFreshSchema(
        url!,
        async (schema) => {
          // One connection: the statements the test reads are its own.
          const b = new PgBackend(url!, { schema, poolSize: 1, connectTimeoutMs: 5_000 });
          const admin = new pg.Client({ connectionString: url });
          await admin.connect();
          try {
            await b.open();
            let version = 0;
            let last = '';
            const write = async (i: number) => {
              const out = await b.commit(new Map([['k', page('p', `v${i}`)]]), new Map([['k', version]]), {
                append: [{ log: 'log/x', table: 'events', row: { id: `e${i}` } }],
                remove: [],
              });
              version = out.get('k')!;
              last = `v${i}`;
            };
            for (let i = 0; i < 12; i++) await write(i);
            const pool = (b as unknown as { pool: pg.Pool }).pool;
            const plans = async () =>
              (
                await pool.query<{ name: string; generic: string; custom: string }>(
                  `SELECT name, generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements ORDER BY name`,
                )
              ).rows.map((r) => ({ name: r.name, generic: Number(r.generic), custom: Number(r.custom) }));
            // PostgreSQL's plan cache plans a prepared statement's first 5 runs, then runs its generic plan.
            for (const p of await plans()) {
              expect(['docs_commit', 'docs_locks']).toContain(p.name);
              expect(p.custom).toBeLessThanOrEqual(5);
              expect(p.generic + p.custom).toBe(12);
            }
            expect((await plans()).map((p) => p.name)).toEqual(['docs_commit', 'docs_locks']);
            // The connection ends (PostgreSQL restarted, a backend terminated): the next one prepares them again.
            const pid = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
            await admin.query('SELECT pg_terminate_backend($1)', [pid]);
            const until = Date.now() + 10_000;
            for (let i = 12; ; i++) {
              const err = await write(i).then(
                () => undefined,
                (e) => e,
              );
              if (!err) break;
              if (Date.now() > until) throw err;
            }
            expect((await b.load(['k'])).get('k')).toMatchObject({ version, data: page('p', last) });
            expect((await pool.query('SELECT pg_backend_pid() AS pid')).rows[0].pid).not.toBe(pid);
            expect((await plans()).map((p) => p.name)).toEqual(['docs_commit', 'docs_locks']);
          } finally {
            await admin.end();
            await b.close();
          }
        },
        'pgprep',
      );
    },
    T,
  );

  it(
    'drops a connection whose statements could not all be prepared: PREPARE is not undone, so it could never prepare them again',
    async () => {
      await withFreshSchema(
        url!,
        async (schema) => {
          const b = new PgBackend(url!, { schema, poolSize: 1, connectTimeoutMs: 5_000 });
          try {
            await b.open();
            const pool = (b as unknown as { pool: pg.Pool }).pool;
            // The connection already holds a statement of that name (as after a failure between the two).
            await pool.query('PREPARE docs_locks (int8[], text[]) AS SELECT 1');
            const pid = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
            await expect(b.commit(new Map([['k', page('p', 'v1')]]), new Map([['k', 0]]))).rejects.toThrow(/already exists/);
            const out = await b.commit(new Map([['k', page('p', 'v1')]]), new Map([['k', 0]]));
            expect(out.get('k')).toBe(1);
            expect((await pool.query('SELECT pg_backend_pid() AS pid')).rows[0].pid).not.toBe(pid);
          } finally {
            await b.close();
          }
        },
        'pgprep2',
      );
    },
    T,
  );

  it(
    'writes quotes, backslashes and non-ASCII text back exactly, and refuses a stale version without writing any shard',
    async () => {
      await withBackends(2, async (a, b) => {
        const odd = page('p', `it's a \\ "quote" \\' ''; DROP TABLE x; -- é 😀 \u2028 \\u0000 $$ $1`);
        await a.commit(new Map([['weird \\ key', odd]]), new Map([['weird \\ key', 0]]));
        expect((await b.load(['weird \\ key'])).get('weird \\ key')).toMatchObject({ version: 1, data: odd });
        // One stale shard of two: neither is written.
        await b.commit(new Map([['x', page('x', '1')]]), new Map([['x', 0]]));
        const e = await a
          .commit(
            new Map([
              ['weird \\ key', page('p', 'lost')],
              ['x', page('x', 'lost')],
            ]),
            new Map([
              ['weird \\ key', 1],
              ['x', 0],
            ]),
          )
          .catch((err) => err);
        expect(e).toBeInstanceOf(ShardConflict);
        expect((e as ShardConflict).keys).toEqual(['x']);
        const after = await b.load(['weird \\ key', 'x']);
        expect(after.get('weird \\ key')).toMatchObject({ version: 1, data: odd });
        expect(after.get('x')).toMatchObject({ version: 1, data: page('x', '1') });
      });
    },
    T,
  );

  it(
    'fails only the write that fails in a batch; the others of the batch are committed',
    async () => {
      await withBackends(1, async (b) => {
        const store = await ShardStore.open(b, SPECS);
        // Queued in one tick: one batch, one commit.
        const writes = [0, 1, 2, 3].map((i) =>
          store.write((tx) => {
            if (i === 2) throw new Error('this write fails');
            tx.put('counters', { id: `w${i}`, n: i });
            return i;
          }),
        );
        const out = await Promise.allSettled(writes);
        expect(out.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
        expect((out[2] as PromiseRejectedResult).reason.message).toBe('this write fails');
        const fresh = await ShardStore.open(b, SPECS);
        expect(await fresh.read((tx) => ['w0', 'w1', 'w2', 'w3'].map((id) => tx.get<any>('counters', id)?.n ?? null))).toEqual([0, 1, null, 3]);
      });
    },
    T,
  );

  it(
    'two processes incrementing the same rows in batches lose no acknowledged increment and apply none twice',
    async () => {
      await withBackends(2, async (pa, pb) => {
        const a = await ShardStore.open(pa, SPECS);
        const b = await ShardStore.open(pb, SPECS);
        await a.write((tx) => {
          tx.put('counters', { id: 'hot', n: 0 });
          tx.put('counters', { id: 'cold', n: 0 });
        });
        const inc = (s: ShardStore, id: string) =>
          s.write((tx) => {
            const row = tx.get<{ id: string; n: number }>('counters', id)!;
            tx.put('counters', { ...row, n: row.n + 1 });
          });
        // 40 writes from each process, many queued at once (batches of several), both on the hot row.
        const all: Promise<unknown>[] = [];
        for (let i = 0; i < 40; i++) all.push(inc(a, 'hot'), inc(b, 'hot'), inc(i % 2 ? a : b, 'cold'));
        const out = await Promise.allSettled(all);
        const acked = (k: number) => out.filter((o, i) => i % 3 === k && o.status === 'fulfilled').length;
        expect(out.filter((o) => o.status === 'rejected')).toEqual([]);
        const fresh = await ShardStore.open(new PgBackend(url!, { schema: (pa as any).schema, poolSize: 2 }), SPECS);
        try {
          expect(await fresh.read((tx) => tx.get<any>('counters', 'hot').n)).toBe(acked(0) + acked(1));
          expect(await fresh.read((tx) => tx.get<any>('counters', 'cold').n)).toBe(acked(2));
        } finally {
          await fresh.close();
        }
      });
    },
    T,
  );
});
