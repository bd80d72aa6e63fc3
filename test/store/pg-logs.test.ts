import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { ShardData } from '../../src/store/backend.js';
import { PgBackend } from '../../src/store/pg-backend.js';
import { ShardStore } from '../../src/store/shard-store.js';
import type { TableSpec } from '../../src/store/port.js';
import { postgresOrSkip, withFreshSchema } from '../helpers/postgres.js';

// Logs on PostgreSQL (TableSpec.log, src/store/pg-backend.ts): rows appended and removed one by
// one in a commit beside its shards, never a document rewritten whole; a log's key loads every
// row; other processes hear that the log changed.

const url = await postgresOrSkip();
const T = 20_000;

async function withBackends(n: number, fn: (...b: PgBackend[]) => Promise<void>): Promise<void> {
  await withFreshSchema(
    url!,
    async (schema) => {
      const backends = Array.from({ length: n }, () => new PgBackend(url!, { poolSize: 4, connectTimeoutMs: 5_000, schema }));
      try {
        for (const b of backends) await b.open();
        await fn(...backends);
      } finally {
        await Promise.all(backends.map((b) => b.close()));
      }
    },
    'pgtest_logs',
  );
}

/** The rows of `schema`.`table` (shards or logs), by their first two columns. */
async function rowsOf(schema: string, table: 'shards' | 'logs'): Promise<any[]> {
  const c = new pg.Client({ connectionString: url! });
  await c.connect();
  try {
    return (await c.query(`SELECT * FROM ${pg.escapeIdentifier(schema)}.${table} ORDER BY 1, 2`)).rows;
  } finally {
    await c.end();
  }
}

const ev = (id: string, n: number) => ({ id, organization: 'o', n });

/** Waits (at most 10 s: notices come through PostgreSQL, late on a loaded machine) until `done`. */
async function until(done: () => boolean) {
  const deadline = Date.now() + 10_000;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

/** The tables every store of these tests has besides its log: a root and ordinary shards. */
const BASE_SPECS: TableSpec[] = [
  { name: 'meta', shard: () => 'root', indexes: [], home: 'root', locateId: () => 'root' },
  { name: 'notes', shard: (r) => `n/${r.id}`, indexes: [], locateId: (id) => `n/${id}` },
];

describe.skipIf(!url)('logs on PostgreSQL', () => {
  it(
    'appends and removes rows beside the shards, loads a log whole in the order appended, lists it among the keys',
    async () => {
      await withBackends(2, async (a, b) => {
        const heard: string[][] = [];
        b.subscribe((keys) => heard.push(keys));
        await b.whenListening();
        const shard: ShardData = { spaces: { s: { id: 's', title: 'one' } } };
        await a.commit(new Map([['space/s', shard]]), new Map([['space/s', 0]]), {
          append: [
            { log: 'log/audit/o', table: 'auditLog', row: ev('o:2', 2) },
            { log: 'log/audit/o', table: 'auditLog', row: ev('o:1', 1) },
          ],
          remove: [],
        });
        const got = await b.load(['log/audit/o', 'space/s', 'log/audit/none']);
        expect(got.get('space/s')!.data).toEqual(shard);
        // In the order appended, not by id; version 0 (never checked).
        expect(Object.keys(got.get('log/audit/o')!.data.auditLog!)).toEqual(['o:2', 'o:1']);
        expect(got.get('log/audit/o')!.version).toBe(0);
        expect(got.get('log/audit/none')).toEqual({ data: {}, version: 0, size: 0 });
        expect(await a.keys()).toEqual(['log/audit/o', 'space/s']);
        // A commit of rows only, and a removal; an id appended again reads as its first row.
        await a.commit(new Map(), new Map(), {
          append: [
            { log: 'log/audit/o', table: 'auditLog', row: ev('o:3', 3) },
            { log: 'log/audit/o', table: 'auditLog', row: ev('o:1', 99) },
          ],
          remove: [
            { log: 'log/audit/o', id: 'o:2' },
            { log: 'log/audit/o', id: 'o:absent' },
          ],
        });
        const log = (await b.load(['log/audit/o'])).get('log/audit/o')!.data.auditLog!;
        expect(log).toEqual({ 'o:1': ev('o:1', 1), 'o:3': ev('o:3', 3) });
        // The shard row holds the shard only; the log's rows are rows of their own.
        expect((await rowsOf((a as any).schema, 'shards')).map((r) => r.key)).toEqual(['space/s']);
        // PostgreSQL does not check ids unique (layout 4: no key on (log, id), see the next tests).
        expect((await rowsOf((a as any).schema, 'logs')).map((r) => r.id)).toEqual(['o:1', 'o:1', 'o:3']);
        await until(() => heard.length >= 2);
        expect(heard).toContainEqual(['space/s', 'log/audit/o']);
        expect(heard).toContainEqual(['log/audit/o']);
      });
    },
    T,
  );

  it(
    'a refused commit appends and removes nothing; committing a log key replaces the log (docs migrate)',
    async () => {
      await withBackends(1, async (a) => {
        await a.commit(new Map([['k', { t: { x: { id: 'x' } } }]]), new Map([['k', 0]]), {
          append: [{ log: 'log/l', table: 'auditLog', row: ev('o:1', 1) }],
          remove: [],
        });
        await expect(
          a.commit(new Map([['k', { t: { x: { id: 'x', v: 2 } } }]]), new Map([['k', 0]]), {
            append: [{ log: 'log/l', table: 'auditLog', row: ev('o:2', 2) }],
            remove: [{ log: 'log/l', id: 'o:1' }],
          }),
        ).rejects.toThrow(/changed by another writer/);
        expect((await a.load(['log/l'])).get('log/l')!.data).toEqual({ auditLog: { 'o:1': ev('o:1', 1) } });
        await a.commit(new Map([['log/l', { auditLog: { 'o:5': ev('o:5', 5), 'o:4': ev('o:4', 4) } }]]), new Map([['log/l', 0]]));
        expect(Object.keys((await a.load(['log/l'])).get('log/l')!.data.auditLog!)).toEqual(['o:5', 'o:4']);
      });
    },
    T,
  );

  it(
    'trims a log to its newest rows by occurredAt then id, and none before a time, telling other processes',
    async () => {
      await withBackends(2, async (a, b) => {
        const heard: string[][] = [];
        b.subscribe((keys) => heard.push(keys));
        await b.whenListening();
        const at = (n: number) => `2026-11-${String(10 + n).padStart(2, '0')}T00:00:00.000Z`;
        // Appended out of time order; two rows of one time (the greater id is the newer).
        const rows = [5, 1, 4, 2, 3].map((n) => ({ id: `o:${n}`, organization: 'o', occurredAt: at(n) }));
        rows.push({ id: 'o:3b', organization: 'o', occurredAt: at(3) });
        await a.commit(new Map(), new Map(), { append: rows.map((row) => ({ log: 'log/o', table: 'auditLog', row })), remove: [] });
        const left = async () => Object.keys((await a.load(['log/o'])).get('log/o')?.data.auditLog ?? {}).sort();
        expect(await a.trimLog('log/o', 4, '')).toEqual({ count: 4, oldest: at(3) });
        expect(await left()).toEqual(['o:3', 'o:3b', 'o:4', 'o:5']);
        expect(await a.trimLog('log/o', 3, '')).toEqual({ count: 3, oldest: at(3) });
        expect(await left()).toEqual(['o:3b', 'o:4', 'o:5']);
        expect(await a.trimLog('log/o', 10, at(4))).toEqual({ count: 2, oldest: at(4) });
        expect(await a.trimLog('log/o', 10, at(9))).toEqual({ count: 0, oldest: '' });
        expect(await left()).toEqual([]);
        await until(() => heard.filter((k) => k[0] === 'log/o').length >= 5);
        await new Promise((r) => setTimeout(r, 100)); // nothing more comes
        expect(heard.filter((k) => k[0] === 'log/o').length).toBe(5); // the append, and each trim that removed rows
      });
    },
    T,
  );

  it(
    "the store appends a log table's rows without reading or rewriting the log, and reads them back",
    async () => {
      await withFreshSchema(
        url!,
        async (schema) => {
          const specs: TableSpec[] = [
            ...BASE_SPECS,
            {
              name: 'events',
              shard: (r) => `log/e/${r.organization}`,
              indexes: ['organization'],
              log: true,
              locateId: (id) => `log/e/${id.split(':')[0]}`,
              locate: { organization: (v) => `log/e/${v}` },
            },
          ];
          const backend = new PgBackend(url!, { poolSize: 4, schema });
          const other = new PgBackend(url!, { poolSize: 4, schema });
          const store = await ShardStore.open(backend, specs);
          const second = await ShardStore.open(other, specs);
          try {
            expect(store.logTables).toEqual(new Set(['events']));
            const loads: string[][] = [];
            const load = backend.load.bind(backend);
            backend.load = (keys) => (loads.push(keys), load(keys));
            await Promise.all(
              [1, 2, 3].map((n) =>
                store.write((tx) => {
                  tx.put('notes', { id: `a${n}`, text: 'x' });
                  tx.put('events', { id: `o:${n}`, organization: 'o', n });
                }),
              ),
            );
            // The log was neither loaded nor written as a shard.
            expect(loads.flat().filter((k) => k.startsWith('log/'))).toEqual([]);
            expect((await rowsOf(schema, 'shards')).map((r) => r.key)).not.toContain('log/e/o');
            expect(await store.read((tx) => tx.find('events', 'organization', 'o').map((r) => r.id))).toEqual(['o:1', 'o:2', 'o:3']);
            expect(await second.read((tx) => tx.get('events', 'o:2'))).toEqual({ id: 'o:2', organization: 'o', n: 2 });
            // A row appended by one process is read by another holding the log (told by the notification).
            await second.write((tx) => void tx.put('events', { id: 'o:4', organization: 'o', n: 4 }));
            const until = Date.now() + 5_000;
            while ((await store.read((tx) => tx.find('events', 'organization', 'o').length)) < 4 && Date.now() < until)
              await new Promise((r) => setTimeout(r, 20));
            expect(await store.read((tx) => tx.find('events', 'organization', 'o').map((r) => r.id))).toEqual(['o:1', 'o:2', 'o:3', 'o:4']);
            await store.write((tx) => void tx.delete('events', 'o:1'));
            expect(await store.read((tx) => tx.find('events', 'organization', 'o').map((r) => r.id))).toEqual(['o:2', 'o:3', 'o:4']);
            expect((await rowsOf(schema, 'logs')).map((r) => r.id)).toEqual(['o:2', 'o:3', 'o:4']);
          } finally {
            await store.close();
            await second.close();
          }
        },
        'pgtest_logs',
      );
    },
    T,
  );

  it(
    'a log is indexed in the order trims read it (no sort), and by nothing else: an append checks no key',
    async () => {
      await withBackends(1, async (a) => {
        const schema = (a as any).schema as string;
        const at = (n: number) => new Date(Date.UTC(2026, 10, 1) + n * 1000).toISOString();
        // Several logs in one table: a trim of one of them must not read the others' rows.
        for (const log of ['log/audit/o', 'log/audit/p', 'log/audit/q']) {
          for (let b = 0; b < 10; b++) {
            const append = Array.from({ length: 100 }, (_, i) => ({
              log,
              table: 'auditLog',
              row: { id: `${log}:${b * 100 + i}`, occurredAt: at(b * 100 + i) },
            }));
            await a.commit(new Map(), new Map(), { append, remove: [] });
          }
        }
        const c = new pg.Client({ connectionString: url! });
        await c.connect();
        try {
          const q = pg.escapeIdentifier(schema);
          // What the index can do (on a table this small the planner reads it whole, as it should):
          // the newest rows of one log in order, without a sort (the key (log, id) of layout 3 could not).
          await c.query('SET enable_seqscan = off');
          await c.query('SET enable_bitmapscan = off');
          const plan = (
            await c.query(`EXPLAIN SELECT ord, id FROM ${q}.logs WHERE log = $1 AND ord >= $2 ORDER BY ord DESC, id DESC OFFSET 899 LIMIT 1`, [
              'log/audit/o',
              '',
            ])
          ).rows
            .map((r) => r['QUERY PLAN'])
            .join('\n');
          expect(plan).toMatch(/Index Only Scan Backward using logs_order/);
          expect(plan).not.toMatch(/Sort/);
          // The table's only index is the order (no unique key: appends need no conflict check).
          const indexes = (await c.query(`SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = 'logs'`, [schema])).rows;
          expect(indexes.map((r) => r.indexdef.replace(/^.* USING /, ''))).toEqual(['btree (log, ord, id)']);
        } finally {
          await c.end();
        }
        expect(await a.trimLog('log/audit/o', 900, '')).toEqual({ count: 900, oldest: at(100) });
        const left = async (log: string) => Object.keys((await a.load([log])).get(log)!.data.auditLog!).length;
        expect([await left('log/audit/o'), await left('log/audit/p'), await left('log/audit/q')]).toEqual([900, 1000, 1000]);
        // Keeping none empties that log only.
        expect(await a.trimLog('log/audit/p', 0, '')).toEqual({ count: 0, oldest: '' });
        expect((await a.load(['log/audit/p'])).get('log/audit/p')!.data).toEqual({});
        expect(await left('log/audit/q')).toBe(1000);
      });
    },
    T,
  );

  it(
    'a schema of layout 3 (logs keyed by log and id) is brought to layout 4 at open: its rows read as they were, new ones append',
    async () => {
      await withFreshSchema(
        url!,
        async (schema) => {
          const q = pg.escapeIdentifier(schema);
          const c = new pg.Client({ connectionString: url! });
          await c.connect();
          const old = { id: 'o:1', organization: 'o', occurredAt: '2026-11-01T00:00:00.000Z', action: 'space.updated' };
          try {
            // Layout 3 as its build created it, with a row and a shard.
            await c.query(`CREATE SCHEMA ${q}`);
            await c.query(`CREATE TABLE ${q}.schema_version (one boolean PRIMARY KEY DEFAULT true CHECK (one), version integer NOT NULL)`);
            await c.query(`INSERT INTO ${q}.schema_version (version) VALUES (3)`);
            await c.query(`CREATE TABLE ${q}.shards (key text PRIMARY KEY, data text, version bigint NOT NULL)`);
            await c.query(`CREATE TABLE ${q}.jobs (key text PRIMARY KEY)`);
            await c.query(`CREATE TABLE ${q}.logs (
              log text NOT NULL, id text NOT NULL, tbl text NOT NULL, data text NOT NULL, ord text NOT NULL, seq bigserial NOT NULL,
              PRIMARY KEY (log, id))`);
            await c.query(`INSERT INTO ${q}.shards VALUES ('space/s', '{"spaces":{"s":{"id":"s"}}}', 1)`);
            await c.query(`INSERT INTO ${q}.logs (log, id, tbl, data, ord) VALUES ('log/audit/o', 'o:1', 'auditLog', $1, $2)`, [
              JSON.stringify(old),
              old.occurredAt,
            ]);
            const b = new PgBackend(url!, { poolSize: 2, schema });
            try {
              await b.open();
              const added = { ...old, id: 'o:2', occurredAt: '2026-11-02T00:00:00.000Z' };
              await b.commit(new Map(), new Map(), { append: [{ log: 'log/audit/o', table: 'auditLog', row: added }], remove: [] });
              const got = await b.load(['log/audit/o', 'space/s']);
              expect(got.get('log/audit/o')!.data).toEqual({ auditLog: { 'o:1': old, 'o:2': added } });
              expect(got.get('space/s')).toMatchObject({ data: { spaces: { s: { id: 's' } } }, version: 1 });
              expect(await b.trimLog('log/audit/o', 1, '')).toEqual({ count: 1, oldest: added.occurredAt });
            } finally {
              await b.close();
            }
            expect((await c.query(`SELECT version FROM ${q}.schema_version`)).rows).toEqual([{ version: 4 }]);
            const indexes = (await c.query(`SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'logs'`, [schema])).rows;
            expect(indexes.map((r) => r.indexname)).toEqual(['logs_order']);
          } finally {
            await c.end();
          }
        },
        'pgtest_logs',
      );
    },
    T,
  );

  it(
    'a notice carries the shards a commit wrote when they fit: another process takes them without reading them again',
    async () => {
      await withBackends(2, async (a, b) => {
        const heard: [string[], Map<string, any> | undefined][] = [];
        b.subscribe((keys, shards) => heard.push([keys, shards]));
        await b.whenListening();
        await a.commit(new Map([['s/1', { t: { x: { id: 'x', v: "it's \\ é" } } }]]), new Map([['s/1', 0]]));
        await a.commit(
          new Map([
            ['s/1', { t: { x: { id: 'x', v: 2 } } }],
            ['s/2', null],
          ]),
          new Map([['s/1', 1]]),
        );
        const big: ShardData = { t: { y: { id: 'y', v: 'x'.repeat(9_000) } } };
        await a.commit(
          new Map([
            ['s/3', big],
            ['s/4', { t: { z: { id: 'z' } } }],
          ]),
          new Map([
            ['s/3', 0],
            ['s/4', 0],
          ]),
        );
        const until = Date.now() + 5_000;
        while (heard.length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
        expect(heard.map(([keys]) => keys)).toEqual([['s/1'], ['s/1', 's/2'], ['s/3', 's/4']]);
        expect(heard[0]![1]).toEqual(new Map([['s/1', { data: { t: { x: { id: 'x', v: "it's \\ é" } } }, version: 1, size: expect.any(Number) }]]));
        expect(heard[1]![1]).toEqual(new Map([['s/1', { data: { t: { x: { id: 'x', v: 2 } } }, version: 2, size: expect.any(Number) }]]));
        // What fits is carried; a shard too big to carry is named only (read again when used).
        expect(heard[2]![1]).toEqual(new Map([['s/4', { data: { t: { z: { id: 'z' } } }, version: 1, size: expect.any(Number) }]]));
      });
    },
    T,
  );

  it(
    'a store holding a shard another process changed takes the new copy from the notice, without a load',
    async () => {
      await withFreshSchema(
        url!,
        async (schema) => {
          const specs: TableSpec[] = [...BASE_SPECS];
          const a = await ShardStore.open(new PgBackend(url!, { poolSize: 4, schema }), specs);
          const b = await ShardStore.open(new PgBackend(url!, { poolSize: 4, schema }), specs);
          try {
            await a.write((tx) => void tx.put('notes', { id: 'k', v: 1 }));
            expect(await b.read((tx) => tx.get('notes', 'k'))).toEqual({ id: 'k', v: 1 });
            const loads: string[] = [];
            const load = b.backend.load.bind(b.backend);
            b.backend.load = (keys) => (loads.push(...keys), load(keys));
            for (let v = 2; v <= 4; v++) {
              await a.write((tx) => void tx.put('notes', { id: 'k', v }));
              const until = Date.now() + 5_000;
              while ((await b.read((tx) => tx.get<any>('notes', 'k')?.v)) !== v && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
              expect(await b.read((tx) => tx.get('notes', 'k'))).toEqual({ id: 'k', v });
            }
            expect(loads).toEqual([]);
            // And its writes over the copy are checked against the version the notice gave.
            await b.write((tx) => void tx.put('notes', { id: 'k', v: 5 }));
            expect(loads).toEqual([]);
            expect((await b.backend.load(['n/k'])).get('n/k')!.data.notes!.k).toEqual({ id: 'k', v: 5 });
          } finally {
            await a.close();
            await b.close();
          }
        },
        'pgtest_logs',
      );
    },
    T,
  );
});
