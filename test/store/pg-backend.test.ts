import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ShardConflict, type ShardData } from '../../src/store/backend.js';
import { isPostgresUrl, PG_SCHEMA_VERSION, PgBackend, shardLockId, type PgBackendOptions } from '../../src/store/pg-backend.js';
import { postgresOrSkip, withFreshSchema } from '../helpers/postgres.js';

const url = await postgresOrSkip();
const T = 20_000; // each test's bound

/** `n` backends on one fresh schema (like `n` processes sharing a database), all opened; closed and the schema dropped after. */
async function withBackends(n: number, fn: (...b: PgBackend[]) => Promise<void>, options: PgBackendOptions = {}): Promise<void> {
  await withFreshSchema(
    url!,
    async (schema) => {
      const backends = Array.from({ length: n }, () => new PgBackend(url!, { poolSize: 4, connectTimeoutMs: 5_000, ...options, schema }));
      try {
        for (const b of backends) await b.open();
        await fn(...backends);
      } finally {
        await Promise.all(backends.map((b) => b.close()));
      }
    },
    'pgbackend',
  );
}

async function waitFor(what: string, ok: () => boolean, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const page = (id: string, title: string): ShardData => ({ pages: { [id]: { id, title } } });
const one = (k: string, d: ShardData | null) => new Map([[k, d]]);
const exp = (entries: Record<string, number>) => new Map(Object.entries(entries));

/** The conflict a commit rejected with (fails when it resolved or failed otherwise). */
async function conflictOf(p: Promise<unknown>): Promise<string[]> {
  const e = await p.then(
    () => undefined,
    (err) => err,
  );
  expect(e).toBeInstanceOf(ShardConflict);
  return [...(e as ShardConflict).keys].sort();
}

describe('isPostgresUrl', () => {
  it('tells a PostgreSQL URL from a data directory', () => {
    expect(isPostgresUrl('postgres://u@h:5432/db')).toBe(true);
    expect(isPostgresUrl('postgresql://h/db')).toBe(true);
    expect(isPostgresUrl('POSTGRES://h/db')).toBe(true);
    expect(isPostgresUrl('/var/lib/docs')).toBe(false);
    expect(isPostgresUrl('./postgres://x')).toBe(false);
    expect(isPostgresUrl('http://h/db')).toBe(false);
  });
});

describe.skipIf(!url)('PgBackend (PostgreSQL)', () => {
  it(
    'creates its tables once, even when several processes open at the same time',
    async () => {
      await withFreshSchema(url!, async (schema) => {
        const backends = Array.from({ length: 4 }, () => new PgBackend(url!, { schema, poolSize: 2 }));
        try {
          await Promise.all(backends.flatMap((b) => [b.open(), b.open()]));
          await backends[0].open(); // and again, on the fast path
          const c = new pg.Client({ connectionString: url });
          await c.connect();
          try {
            const v = await c.query(`SELECT version FROM ${pg.escapeIdentifier(schema)}.schema_version`);
            expect(v.rows).toEqual([{ version: PG_SCHEMA_VERSION }]);
            // A layout newer than the program is refused, not overwritten.
            await c.query(`UPDATE ${pg.escapeIdentifier(schema)}.schema_version SET version = $1`, [PG_SCHEMA_VERSION + 1]);
          } finally {
            await c.end();
          }
          await expect(backends[1].open()).rejects.toThrow(/newer than this program/);
        } finally {
          await Promise.all(backends.map((b) => b.close()));
        }
      });
    },
    T,
  );

  it(
    'loads absent shards as empty, version 0',
    async () => {
      await withBackends(1, async (b) => {
        expect((await b.load([])).size).toBe(0);
        const got = await b.load(['a', 'b', 'a']);
        expect([...got.keys()].sort()).toEqual(['a', 'b']);
        expect(got.get('a')).toEqual({ data: {}, version: 0, size: 0 });
        expect(got.get('b')).toEqual({ data: {}, version: 0, size: 0 });
        expect(await b.keys()).toEqual([]);
      });
    },
    T,
  );

  it(
    'loads what it committed, in one process and another, with its size in bytes',
    async () => {
      await withBackends(2, async (a, b) => {
        const data: ShardData = {
          pages: {
            p2: { id: 'p2', title: 'Zwei — ü', n: 1.5, nul: 'a\u0000b', lone: '\ud800', deep: { list: [1, null, 'x'] } },
            p1: { id: 'p1', title: 'one' },
          },
          spaces: { s1: { id: 's1' } },
        };
        const versions = await a.commit(
          new Map([
            ['space/s1', data],
            ['space/s2', page('x', 'y')],
          ]),
          exp({ 'space/s1': 0, 'space/s2': 0 }),
        );
        expect(versions).toEqual(
          new Map([
            ['space/s1', 1],
            ['space/s2', 1],
          ]),
        );
        for (const backend of [a, b]) {
          const got = await backend.load(['space/s1', 'space/s2', 'space/none']);
          const s1 = got.get('space/s1')!;
          expect(s1.data).toEqual(data);
          expect(Object.keys(s1.data.pages)).toEqual(['p2', 'p1']); // key order kept
          expect(s1.version).toBe(1);
          expect(s1.size).toBe(Buffer.byteLength(JSON.stringify(data)));
          expect(got.get('space/s2')).toMatchObject({ data: page('x', 'y'), version: 1 });
          expect(got.get('space/none')).toEqual({ data: {}, version: 0, size: 0 });
        }
        expect(await b.keys()).toEqual(['space/s1', 'space/s2']);
      });
    },
    T,
  );

  it(
    'counts versions up, one per commit of a shard',
    async () => {
      await withBackends(1, async (b) => {
        let v = 0;
        for (let i = 1; i <= 4; i++) {
          const got = await b.commit(one('k', page('p', `t${i}`)), exp({ k: v }));
          expect(got.get('k')).toBe(v + 1);
          v = got.get('k')!;
          expect((await b.load(['k'])).get('k')).toMatchObject({ version: v, data: page('p', `t${i}`) });
        }
        // A shard only read (in expected, not changed) keeps its version.
        await b.commit(one('other', page('o', 'o')), exp({ k: v, other: 0 }));
        expect((await b.load(['k'])).get('k')!.version).toBe(v);
        // Nothing to do: no round trip, nothing changes.
        expect((await b.commit(new Map(), new Map())).size).toBe(0);
      });
    },
    T,
  );

  it(
    'rejects the second of two processes committing over the same version',
    async () => {
      await withBackends(2, async (a, b) => {
        await a.commit(one('k', page('p', 'v1')), exp({ k: 0 }));
        const va = (await a.load(['k'])).get('k')!.version;
        const vb = (await b.load(['k'])).get('k')!.version;
        expect(va).toBe(1);
        expect(vb).toBe(1);
        const results = await Promise.allSettled([
          a.commit(one('k', page('p', 'by a')), exp({ k: va })),
          b.commit(one('k', page('p', 'by b')), exp({ k: vb })),
        ]);
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(1);
        expect(lost[0].reason).toBeInstanceOf(ShardConflict);
        expect(lost[0].reason.keys).toEqual(['k']);
        const winner = results[0].status === 'fulfilled' ? 'by a' : 'by b';
        expect((await a.load(['k'])).get('k')).toMatchObject({ version: 2, data: page('p', winner) });
        // A shard only read counts too: b read k at 1, a has since written it.
        expect(await conflictOf(b.commit(one('elsewhere', page('e', 'e')), exp({ k: 1, elsewhere: 0 })))).toEqual(['k']);
        expect((await b.load(['elsewhere'])).get('elsewhere')!.version).toBe(0);
      });
    },
    T,
  );

  it(
    'lets exactly one of several processes create the same absent shard',
    async () => {
      await withBackends(3, async (...backends) => {
        for (let round = 0; round < 5; round++) {
          const key = `new-${round}`;
          const attempts = backends.flatMap((b, i) => [0, 1].map((j) => b.commit(one(key, page('p', `${i}.${j}`)), exp({ [key]: 0 }))));
          const results = await Promise.allSettled(attempts);
          const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
          expect(won).toHaveLength(1);
          for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ShardConflict);
          const w = won[0];
          expect((await backends[0].load([key])).get(key)).toMatchObject({ version: 1, data: page('p', `${Math.floor(w / 2)}.${w % 2}`) });
        }
      });
    },
    T,
  );

  it(
    'applies a commit of several shards entirely or not at all',
    async () => {
      await withBackends(2, async (a, b) => {
        const v = await a.commit(
          new Map([
            ['a', page('a', 'a1')],
            ['b', page('b', 'b1')],
            ['c', page('c', 'c1')],
          ]),
          exp({ a: 0, b: 0, c: 0 }),
        );
        expect(v).toEqual(
          new Map([
            ['a', 1],
            ['b', 1],
            ['c', 1],
          ]),
        );
        // Another process changes the last shard: a's commit of all three fails, none applied.
        await b.commit(one('c', page('c', 'c2 by b')), exp({ c: 1 }));
        const changes = new Map<string, ShardData | null>([
          ['a', page('a', 'a2')],
          ['b', null],
          ['d', page('d', 'd1')],
          ['c', page('c', 'c2 by a')],
        ]);
        expect(await conflictOf(a.commit(changes, exp({ a: 1, b: 1, d: 0, c: 1 })))).toEqual(['c']);
        const after = await b.load(['a', 'b', 'c', 'd']);
        expect(after.get('a')).toMatchObject({ version: 1, data: page('a', 'a1') });
        expect(after.get('b')).toMatchObject({ version: 1, data: page('b', 'b1') });
        expect(after.get('c')).toMatchObject({ version: 2, data: page('c', 'c2 by b') });
        expect(after.get('d')).toEqual({ data: {}, version: 0, size: 0 });

        // A failure while writing (past the version check) rolls back the shards written before it:
        // this key is too big for the primary key's index.
        const huge = randomBytes(12_000).toString('base64');
        await expect(
          a.commit(
            new Map([
              ['a', page('a', 'a3')],
              [huge, page('h', 'h')],
            ]),
            exp({ a: 1, [huge]: 0 }),
          ),
        ).rejects.toThrow();
        expect((await b.load(['a'])).get('a')).toMatchObject({ version: 1, data: page('a', 'a1') });
        // The backend is still usable after that.
        expect((await a.commit(one('a', page('a', 'a4')), exp({ a: 1 }))).get('a')).toBe(2);
      });
    },
    T,
  );

  it(
    'deletes a shard, and never reuses its versions',
    async () => {
      await withBackends(2, async (a, b) => {
        await a.commit(one('k', page('p', 'one')), exp({ k: 0 }));
        await a.commit(one('k', page('p', 'two')), exp({ k: 1 }));
        expect(await a.keys()).toEqual(['k']);
        expect((await a.commit(one('k', null), exp({ k: 2 }))).get('k')).toBe(0);
        expect((await b.load(['k'])).get('k')).toEqual({ data: {}, version: 0, size: 0 });
        expect(await b.keys()).toEqual([]);
        // Deleting an absent shard: nothing to do, version 0.
        expect((await a.commit(one('never', null), exp({ never: 0 }))).get('never')).toBe(0);
        // Deleted then created again: a new version, so a process still holding version 1 or 2
        // of the old shard cannot commit over the new one.
        const v = (await b.commit(one('k', page('p', 'again')), exp({ k: 0 }))).get('k')!;
        expect(v).toBeGreaterThan(2);
        expect((await a.load(['k'])).get('k')).toMatchObject({ version: v, data: page('p', 'again') });
        expect(await conflictOf(a.commit(one('k', page('p', 'stale')), exp({ k: 1 })))).toEqual(['k']);
        expect(await conflictOf(a.commit(one('k', page('p', 'stale')), exp({ k: 2 })))).toEqual(['k']);
        // A deleted shard in expected is version 0.
        await a.commit(one('k', null), exp({ k: v }));
        expect(await conflictOf(b.commit(one('k', page('p', 'x')), exp({ k: v })))).toEqual(['k']);
        expect((await b.commit(one('k', page('p', 'x')), exp({ k: 0 }))).get('k')).toBeGreaterThan(v);
      });
    },
    T,
  );

  it(
    'tells other processes which shards changed, and not the process that changed them',
    async () => {
      await withBackends(2, async (a, b) => {
        const heardA: string[][] = [];
        const heardB: string[][] = [];
        a.subscribe((keys) => heardA.push(keys));
        b.subscribe((keys) => heardB.push(keys));
        await Promise.all([a.whenListening(), b.whenListening()]);

        await a.commit(
          new Map([
            ['x', page('x', 'x')],
            ['y', page('y', 'y')],
          ]),
          exp({ x: 0, y: 0, r: 0 }),
        );
        await waitFor('b to hear of x, y', () => heardB.length === 1);
        expect(heardB[0].sort()).toEqual(['x', 'y']); // changed, not merely read (r)
        // Notifications come in commit order: had a heard its own, it would come before this one.
        await b.commit(one('x', null), exp({ x: 1 }));
        await waitFor('a to hear of x', () => heardA.length === 1);
        expect(heardA).toEqual([['x']]);
        // A failed commit tells nobody.
        await conflictOf(a.commit(one('y', page('y', 'lost')), exp({ y: 7 })));
        // Too many keys for a notification: '*', drop everything.
        const many = new Map(Array.from({ length: 600 }, (_, i) => [`space/${'s'.repeat(20)}/${i}`, page('p', 'p') as ShardData | null]));
        await a.commit(many, new Map([...many.keys()].map((k) => [k, 0])));
        await waitFor('b to hear of everything', () => heardB.length === 2);
        expect(heardB[1]).toEqual(['*']);
        await new Promise((r) => setTimeout(r, 200));
        expect(heardA).toEqual([['x']]);
        expect(heardB).toHaveLength(2);
      });
    },
    T,
  );

  it(
    'locks the shards a commit only read shared: commits reading one shard do not wait for each other, one writing it does',
    async () => {
      await withFreshSchema(
        url!,
        async (schema) => {
          const a = new PgBackend(url!, { poolSize: 4, connectTimeoutMs: 5_000, schema });
          const holder = new pg.Client({ connectionString: url });
          try {
            await a.open();
            await a.commit(one('read', page('r', 'r')), exp({ read: 0 }));
            await holder.connect();
            // Another commit in flight that only read `read`: it holds the shard's lock shared.
            await holder.query('BEGIN');
            await holder.query('SELECT pg_advisory_xact_lock_shared($1::int8)', [shardLockId(schema, 'read')]);
            // A commit that reads it too and writes elsewhere does not wait (exclusive locks made it wait).
            const reader = a.commit(one('w1', page('w', 'w')), exp({ read: 1, w1: 0 }));
            const first = await Promise.race([reader.then(() => 'done'), new Promise((r) => setTimeout(() => r('waiting'), 2_000))]);
            expect(first).toBe('done');
            // A commit that writes it waits until the other has committed.
            let wrote = false;
            const writer = a.commit(one('read', page('r', 'r2')), exp({ read: 1 })).then((v) => ((wrote = true), v));
            await new Promise((r) => setTimeout(r, 300));
            expect(wrote).toBe(false);
            await holder.query('COMMIT');
            expect((await writer).get('read')).toBe(2);
          } finally {
            await holder.end().catch(() => {});
            await a.close();
          }
        },
        'pgbackend',
      );
    },
    T,
  );

  it(
    "keeps other schemas' notifications out",
    async () => {
      await withBackends(1, async (a) => {
        await withBackends(1, async (other) => {
          const heard: string[][] = [];
          a.subscribe((keys) => heard.push(keys));
          await a.whenListening();
          await other.commit(one('k', page('p', 'p')), exp({ k: 0 }));
          await new Promise((r) => setTimeout(r, 200));
          expect(heard).toEqual([]);
        });
      });
    },
    T,
  );

  it(
    'listens again when its connection drops, and says to drop everything',
    async () => {
      await withBackends(
        2,
        async (a, b) => {
          const heard: string[][] = [];
          b.subscribe((keys) => heard.push(keys));
          await b.whenListening();
          const c = new pg.Client({ connectionString: url });
          await c.connect();
          try {
            const killed = await c.query(`SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1`, [`docs-listener-${b.id}`]);
            expect(killed.rows).toEqual([{ ok: true }]);
          } finally {
            await c.end();
          }
          // Told at once (commits go unheard until it listens again), and again once it does.
          await waitFor('b to hear of the loss', () => heard.length === 1);
          expect(heard[0]).toEqual(['*']);
          await waitFor('b to reconnect', () => heard.length === 2);
          expect(heard[1]).toEqual(['*']);
          await b.whenListening();
          await a.commit(one('after', page('p', 'p')), exp({ after: 0 }));
          await waitFor('b to hear of a commit after reconnecting', () => heard.length === 3);
          expect(heard[2]).toEqual(['after']);
        },
        { reconnectMinMs: 20 },
      );
    },
    T,
  );
});
