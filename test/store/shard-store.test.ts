import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ShardConflict, type LoadedShard, type ShardBackend, type ShardData } from '../../src/store/backend.js';
import { FileBackend } from '../../src/store/file-backend.js';
import { bucketFile, catalogEntry, keyOf, sumBucket } from '../../src/store/shard-files.js';
import { MemoryBackend } from '../../src/store/memory-backend.js';
import type { PgBackend } from '../../src/store/pg-backend.js';
import { ShardStore } from '../../src/store/shard-store.js';
import { DocsError } from '../../src/kernel/errors.js';
import type { NamedWriteTx, TableSpec } from '../../src/store/port.js';
import { pgContractBackends, postgresOrSkip } from '../helpers/postgres.js';
import { tempDir } from '../helpers/server.js';
import { newId } from '../../src/kernel/ids.js';

const SPECS: TableSpec[] = [
  { name: 'orgs', shard: (r) => `org/${r.id}`, indexes: [], locateId: (id) => `org/${id}` },
  // No id locator: found through the directory the store keeps.
  { name: 'members', shard: (r) => `org/${r.org}`, indexes: ['org', 'tags'], locate: { org: (v) => `org/${v}` } },
  {
    name: 'bodies',
    shard: (r) => `space/${r.space}/c`,
    indexes: ['space'],
    immutable: true,
    locateId: (id) => `space/${id.split(':')[0]}/c`,
    locate: { space: (v) => `space/${v}/c` },
  },
];

/** A backend wrapper that records loads and commits, and can be made to fail or to conflict. */
class Spy implements ShardBackend {
  commits: string[][] = [];
  loads: string[] = [];
  fail = false;
  /** Commit, then fail as a connection lost after COMMIT was sent does (pg-backend.ts). */
  lostAfterCommit = false;
  conflicts = 0;
  /** Refuses commits of more than this many shards (another process that keeps winning the races of big batches). */
  refuseOver = Infinity;
  constructor(readonly inner: ShardBackend) {}
  open() {
    return this.inner.open();
  }
  keys() {
    return this.inner.keys();
  }
  load(keys: string[]): Promise<Map<string, LoadedShard>> {
    this.loads.push(...keys);
    return this.inner.load(keys);
  }
  async commit(changes: Map<string, ShardData | null>, expected: Map<string, number>) {
    if (this.fail) throw new Error('disk full');
    if (this.conflicts > 0) {
      this.conflicts--;
      throw new ShardConflict([...changes.keys()]);
    }
    if (changes.size > this.refuseOver) throw new ShardConflict([...changes.keys()]);
    this.commits.push([...changes.keys()].sort());
    const versions = await this.inner.commit(changes, expected);
    if (this.lostAfterCommit)
      throw Object.assign(new DocsError('unavailable', 'PostgreSQL store x is unavailable: Connection terminated unexpectedly'), { outcomeUnknown: true });
    return versions;
  }
  closes = 0;
  close() {
    this.closes++;
    return this.inner.close();
  }
}

const userShards = (keys: string[]) => keys.filter((k) => k.startsWith('org/') || k.startsWith('space/'));

/**
 * Where the shards of one test are kept. `open()` gives a backend on them (each call a new one,
 * as another process would have, where the backend allows: memory has one); `shared`: backends
 * of several processes check each other's versions (PostgreSQL).
 */
interface Place {
  open(): ShardBackend;
}

/** The engine's contract, run below on each backend. */
function engineContract(name: string, make: () => Promise<Place>, { shared = false, skip = false, cleanup = async () => {} } = {}) {
  describe.skipIf(skip)(`ShardStore on ${name}`, () => {
    let place: Place;
    /** The backends the test made: closed after it, whatever it left open (a process it let "crash", another's view). */
    const made: ShardBackend[] = [];
    beforeEach(async () => {
      const shards = await make();
      place = { open: () => (made.push(shards.open()), made.at(-1)!) };
    });
    afterEach(async () => {
      for (const backend of made.splice(0)) await backend.close();
      await cleanup();
    });

    it('commits writes and reads them back; a throwing write changes nothing', async () => {
      const store = await ShardStore.open(place.open(), SPECS);
      await store.write((tx) => tx.put('orgs', { id: 'a', title: 'A' }));
      await expect(
        store.write((tx) => {
          tx.put('orgs', { id: 'b', title: 'B' });
          tx.put('orgs', { id: 'a', title: 'changed' });
          throw new Error('rule broken');
        }),
      ).rejects.toThrow('rule broken');
      expect(await store.read((tx) => [tx.get('orgs', 'a'), tx.get('orgs', 'b')])).toEqual([{ id: 'a', title: 'A' }, undefined]);
    });

    it('rehearses a write: its result and rows answered, what its commit rewrites loaded, nothing committed', async () => {
      const spy = new Spy(place.open());
      const store = await ShardStore.open(spy, SPECS);
      await store.write((tx) => tx.put('orgs', { id: 'a', title: 'A' }));
      const generation = store.generation();
      spy.commits = [];
      spy.loads = [];
      // A member is found through the directory the store keeps: its commit rewrites the
      // directory's shards, which the rehearsal loads as a commit's plan does.
      const got = await store.rehearse((tx) => {
        tx.put('orgs', { id: 'a', title: 'changed' });
        tx.put('members', { id: 'm1', org: 'a', tags: ['x'] });
        return tx.get<any>('orgs', 'a').title;
      });
      expect(got.result).toBe('changed');
      expect([...got.changes].map(([table, rows]) => [table, [...rows.keys()]])).toEqual([
        ['orgs', ['a']],
        ['members', ['m1']],
      ]);
      expect(spy.commits).toEqual([]);
      expect(store.generation()).toBe(generation);
      expect(spy.loads.some((k) => k.includes('members'))).toBe(true);
      expect(await store.read((tx) => [tx.get<any>('orgs', 'a').title, tx.get('members', 'm1')])).toEqual(['A', undefined]);
      // Its function's refusal is its own; a write queued after it commits.
      await expect(
        store.rehearse(() => {
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      await store.write((tx) => tx.put('orgs', { id: 'a', title: 'B' }));
      expect(await store.read((tx) => tx.get<any>('orgs', 'a').title)).toBe('B');
      await store.close();
    });

    it('says when a failed write may have been made, and reads its shards again', async () => {
      const spy = new Spy(place.open());
      const store = await ShardStore.open(spy, SPECS);
      await store.write((tx) => tx.put('orgs', { id: 'a', title: 'A' }));
      spy.lostAfterCommit = true;
      const e = await store.write((tx) => tx.put('orgs', { id: 'a', title: 'maybe' })).catch((err) => err);
      expect(e).toBeInstanceOf(DocsError);
      expect(e.message).toMatch(/^the write's outcome is unknown \(PostgreSQL store x is unavailable: .*\); it may have been made/);
      spy.lostAfterCommit = false;
      // It was made: the cache does not hide it.
      expect(await store.read((tx) => tx.get<any>('orgs', 'a')?.title)).toBe('maybe');
      spy.fail = true;
      expect((await store.write((tx) => tx.put('orgs', { id: 'a', title: 'no' })).catch((err) => err)).message).toMatch(/nothing was changed$/);
    });

    it('freezes rows so that services cannot change committed data in place', async () => {
      const store = await ShardStore.open(place.open(), SPECS);
      await store.write((tx) => tx.put('orgs', { id: 'a', title: 'A', nested: { x: 1 } }));
      const row = (await store.read((tx) => tx.get<any>('orgs', 'a')))!;
      expect(() => (row.title = 'B')).toThrow();
      expect(() => (row.nested.x = 2)).toThrow();
    });

    it('groups concurrent writes into few commits, each write seeing the ones before it', async () => {
      const spy = new Spy(place.open());
      const store = await ShardStore.open(spy, SPECS);
      await store.write((tx) => tx.put('orgs', { id: 'counter', n: 0 }));
      spy.commits = [];
      const results = await Promise.all(
        Array.from({ length: 50 }, () =>
          store.write((tx) => {
            const n = tx.get<any>('orgs', 'counter').n + 1;
            tx.put('orgs', { id: 'counter', n });
            return n;
          }),
        ),
      );
      expect(results.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(await store.read((tx) => tx.get<any>('orgs', 'counter').n)).toBe(50);
      expect(spy.commits.length).toBeLessThan(5);
    });

    it('rewrites only the shards a write touches (and the directory bucket of a new id)', async () => {
      const spy = new Spy(place.open());
      const store = await ShardStore.open(spy, SPECS);
      await store.write((tx) => {
        for (let i = 0; i < 20; i++) tx.put('orgs', { id: 'o' + i });
      });
      spy.commits = [];
      await store.write((tx) => tx.put('members', { id: 'm1', org: 'o3' }));
      const [keys] = spy.commits;
      expect(userShards(keys!)).toEqual(['org/o3']);
      expect(keys!.filter((k) => k.startsWith('dir/members.id/'))).toHaveLength(1);
      spy.commits = [];
      // A change that moves nothing and changes no indexed value rewrites the row's shard alone.
      await store.write((tx) => tx.put('members', { id: 'm1', org: 'o3', title: 'x' }));
      expect(spy.commits).toEqual([['org/o3']]);
    });

    it('hands a write function the same new ids when it runs again, so looking up rows by a new id ends', async () => {
      const store = await ShardStore.open(place.open(), SPECS);
      const id = await store.write((tx) => {
        const fresh = newId();
        // Reaches the shard of the new id (org/<fresh>): not loaded on the first run.
        if (!tx.get('orgs', fresh)) tx.put('orgs', { id: fresh });
        return fresh;
      });
      expect(await store.read((tx) => tx.get('orgs', id))).toEqual({ id });
    });

    it('rejects the batch when the commit fails and keeps the committed state', async () => {
      const spy = new Spy(place.open());
      const store = await ShardStore.open(spy, SPECS);
      await store.write((tx) => tx.put('orgs', { id: 'a', v: 1 }));
      spy.fail = true;
      await expect(store.write((tx) => tx.put('orgs', { id: 'a', v: 2 }))).rejects.toMatchObject({ kind: 'unavailable' });
      expect(await store.read((tx) => tx.get<any>('orgs', 'a').v)).toBe(1);
    });

    it('runs a batch again on fresh shards when a shared backend reports a conflict', async () => {
      const spy = new Spy(place.open());
      const store = await ShardStore.open(spy, SPECS);
      await store.write((tx) => tx.put('orgs', { id: 'a', n: 1 }));
      spy.conflicts = 1;
      let runs = 0;
      const n = await store.write((tx) => {
        runs++;
        const next = tx.get<any>('orgs', 'a').n + 1;
        tx.put('orgs', { id: 'a', n: next });
        return next;
      });
      expect(n).toBe(2);
      expect(runs).toBeGreaterThanOrEqual(2); // once refused, then again on the reloaded shard
      expect(await store.read((tx) => tx.get<any>('orgs', 'a').n)).toBe(2);
    });

    it('goes on in halves, in order, when a batch is refused again and again (another process keeps winning)', async () => {
      const spy = new Spy(place.open());
      const store = await ShardStore.open(spy, SPECS);
      spy.refuseOver = 2;
      const ids = ['o1', 'o2', 'o3', 'o4', 'o5', 'o6', 'o7', 'o8'];
      // Queued together: one batch of eight shards, which would be refused until it gave up.
      const t0 = Date.now();
      await Promise.all(ids.map((id) => store.write((tx) => tx.put('orgs', { id }))));
      expect(Date.now() - t0).toBeLessThan(3_000);
      expect(spy.commits.map(userShards).filter((c) => c.length)).toEqual([
        ['org/o1', 'org/o2'],
        ['org/o3', 'org/o4'],
        ['org/o5', 'org/o6'],
        ['org/o7', 'org/o8'],
      ]);
      expect(await store.read((tx) => ids.map((id) => tx.get('orgs', id)?.id))).toEqual(ids);
    });

    it('finds rows by index (located or through directories), array fields and uncommitted changes', async () => {
      const store = await ShardStore.open(place.open(), SPECS);
      await store.write((tx) => {
        tx.put('members', { id: 'm1', org: 'x', tags: ['a', 'b'] });
        tx.put('members', { id: 'm2', org: 'x', tags: ['b'] });
        tx.put('members', { id: 'm3', org: 'y', tags: [] });
      });
      expect(
        await store.read((tx) =>
          tx
            .find('members', 'org', 'x')
            .map((r) => r.id)
            .sort(),
        ),
      ).toEqual(['m1', 'm2']);
      expect(await store.read((tx) => tx.find('members', 'tags', 'a').map((r) => r.id))).toEqual(['m1']);
      const seen = await store.write((tx) => {
        tx.delete('members', 'm1');
        tx.put('members', { id: 'm3', org: 'x', tags: [] });
        return tx
          .find('members', 'org', 'x')
          .map((r) => r.id)
          .sort();
      });
      expect(seen).toEqual(['m2', 'm3']);
      expect(
        await store.read((tx) =>
          tx
            .find('members', 'org', 'x')
            .map((r) => r.id)
            .sort(),
        ),
      ).toEqual(['m2', 'm3']);
      expect(await store.read((tx) => tx.find('members', 'tags', 'a'))).toEqual([]);
      expect(
        await store.read((tx) =>
          tx
            .all('members')
            .map((r) => r.id)
            .sort(),
        ),
      ).toEqual(['m2', 'm3']);
    });

    it('moves a row between shards when its shard key changes, and drops empty shards', async () => {
      const store = await ShardStore.open(place.open(), SPECS);
      await store.write((tx) => tx.put('members', { id: 'm', org: 'a' }));
      await store.write((tx) => tx.put('members', { id: 'm', org: 'b' }));
      expect(userShards(await place.open().keys())).toEqual(['org/b']);
      await store.close();
      const again = await ShardStore.open(place.open(), SPECS);
      expect(await again.read((tx) => [tx.find('members', 'org', 'b'), tx.get('members', 'm'), tx.find('members', 'org', 'a')])).toEqual([
        [{ id: 'm', org: 'b' }],
        { id: 'm', org: 'b' },
        [],
      ]);
    });

    it('opens by reading the catalog and root only, and loads for an operation only the shards it touches', async () => {
      const store = await ShardStore.open(place.open(), SPECS);
      await store.write((tx) => {
        for (let i = 0; i < 50; i++) {
          tx.put('orgs', { id: 'o' + i });
          tx.put('members', { id: `m${i}`, org: 'o' + i });
        }
      });
      await store.close();
      const spy = new Spy(place.open());
      const again = await ShardStore.open(spy, SPECS);
      expect(spy.loads.sort()).toEqual(['catalog', 'root']);
      spy.loads = [];
      expect(await again.read((tx) => tx.get('members', 'm7'))).toEqual({ id: 'm7', org: 'o7' });
      expect(userShards(spy.loads)).toEqual(['org/o7']);
      expect(spy.loads).toHaveLength(2); // the directory bucket of m7, then its shard
    });

    it('keeps the loaded shards within the cache bound, evicting the least recently used', async () => {
      const store = await ShardStore.open(place.open(), SPECS, { cacheBytes: 4000 });
      const pad = 'x'.repeat(400);
      for (let i = 0; i < 40; i++) await store.write((tx) => tx.put('orgs', { id: 'o' + i, pad }));
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 40; i++) expect(await store.read((tx) => tx.get<any>('orgs', 'o' + i)?.id)).toBe('o' + i);
      }
      expect(store.stats().bytes).toBeLessThanOrEqual(4000);
    });

    it('counts what loaded shards take in memory, not the length of their text', async () => {
      const writer = await ShardStore.open(place.open(), SPECS);
      const row = (i: number) => ({ id: `m${i}`, org: 'big', title: `Member number ${i}`, tags: ['reader', 'writer'], at: new Date(i).toISOString() });
      // Many small rows: parsed, each is an object and its strings (1.3–2x the text in V8).
      await writer.write((tx) => {
        for (let i = 0; i < 300; i++) tx.put('members', row(i));
      });
      const spy = new Spy(place.open());
      const store = await ShardStore.open(spy, SPECS);
      const base = store.stats().bytes;
      spy.loads = [];
      expect(await store.read((tx) => tx.find('members', 'org', 'big').length)).toBe(300);
      const text = JSON.stringify(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`m${i}`, row(i)])));
      expect(spy.loads).toContain('org/big');
      const counted = store.stats().bytes - base;
      expect(counted).toBeGreaterThan(1.3 * text.length);
      expect(counted).toBeLessThan(4 * text.length);
    });

    it.runIf(shared)('serializes the writes of two processes on one backend: none lost, each sees the other', async () => {
      const backends = [place.open(), place.open()];
      const [a, b] = [await ShardStore.open(backends[0]!, SPECS), await ShardStore.open(backends[1]!, SPECS)];
      // Both listening before either commits: a commit made while a store's listener is still
      // connecting is never announced to it (a known gap, outside what this test is about).
      await Promise.all(backends.map((x) => (x as Partial<PgBackend>).whenListening?.()));
      await a.write((tx) => tx.put('orgs', { id: 'counter', n: 0 }));
      const bump = (s: ShardStore) =>
        s.write((tx) => {
          const n = tx.get<any>('orgs', 'counter').n + 1;
          tx.put('orgs', { id: 'counter', n });
          tx.put('members', { id: `m${n}`, org: 'counter' }); // and a row found through a directory
          return n;
        });
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => bump(i % 2 ? a : b)));
      expect(results.sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      for (const s of [a, b]) {
        await expect.poll(() => s.read((tx) => tx.get<any>('orgs', 'counter').n)).toBe(40);
        expect(await s.read((tx) => tx.all('members').length)).toBe(40);
      }
      await Promise.all([a.close(), b.close()]);
    });

    it('keeps immutable rows in append-only segments, merged so a group has few', async () => {
      const spy = new Spy(place.open());
      const store = await ShardStore.open(spy, SPECS);
      const written: number[] = [];
      for (let batch = 0; batch < 64; batch++) {
        spy.commits = [];
        await store.write((tx) => {
          for (let i = 0; i < 10; i++) tx.put('bodies', { id: `s:${batch}-${i}`, space: 's', text: 't' });
          tx.put('bodies', { id: 's:0-0', space: 's', text: 't' }); // already there: nothing written
        });
        written.push(spy.commits[0]!.length);
      }
      const keys = (await spy.inner.keys()).filter((k) => k.startsWith('space/s/c/'));
      expect(keys.length).toBeLessThanOrEqual(7); // log2(64) + 1
      expect(await store.read((tx) => tx.find('bodies', 'space', 's').length)).toBe(640);
      // Reopened: the rows are read back from the segments.
      const again = await ShardStore.open(place.open(), SPECS);
      expect(await again.read((tx) => [tx.get('bodies', 's:63-9'), tx.find('bodies', 'space', 's').length])).toEqual([
        { id: 's:63-9', space: 's', text: 't' },
        640,
      ]);
      await again.write((tx) => {
        for (const r of tx.find('bodies', 'space', 's')) tx.delete('bodies', r.id);
      });
      expect((await spy.inner.keys()).filter((k) => k.startsWith('space/'))).toEqual([]);
    });

    it('with segmentFanOut, merges segments by size tiers: fanOut of a tier become one (each row rewritten fewer times)', async () => {
      // src/audit's log: written at every ring move, so rewritten as little as may be.
      const log: TableSpec = {
        name: 'events',
        shard: (r) => `log/${r.g}`,
        indexes: ['g'],
        immutable: true,
        locateId: (id) => `log/${id.split(':')[0]}`,
        locate: { g: (v) => `log/${v}` },
        segmentFanOut: 4,
      };
      const inner = place.open();
      const store = await ShardStore.open(inner, [...SPECS, log]);
      const segments = async () => (await inner.keys()).filter((k) => k.startsWith('log/a/')).length;
      const counts: number[] = [];
      for (let n = 1; n <= 16; n++) {
        await store.write((tx) => tx.put('events', { id: `a:${n}`, g: 'a' }));
        counts.push(await segments());
      }
      // Tiers of 4: 1-3 rows, 4-15, 16-63. The binary counter would give 1 2 2 1 2 2 3 1 ...
      expect(counts).toEqual([1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6, 1]);
      expect(await store.read((tx) => tx.find('events', 'g', 'a').length)).toBe(16);
      const again = await ShardStore.open(place.open(), [...SPECS, log]);
      expect(
        await again.read((tx) =>
          tx
            .find('events', 'g', 'a')
            .map((r) => r.id)
            .sort(),
        ),
      ).toEqual(Array.from({ length: 16 }, (_, i) => `a:${i + 1}`).sort());
    });

    it('migrates a store of layout 1 in place, in one commit; a failed migration leaves it as it was', async () => {
      // Layout 1: members in one shared shard, no catalog.
      const raw = place.open();
      await raw.open();
      await raw.commit(
        new Map<string, ShardData>([
          ['all', { members: { m: { id: 'm', org: 'a' }, n: { id: 'n', org: 'b' } }, orgs: { a: { id: 'a' } } }],
          ['space/s/3', { bodies: { 's:h': { id: 's:h', space: 's', text: 'x' } } }],
        ]),
        new Map([
          ['all', 0],
          ['space/s/3', 0],
        ]),
      );
      const failing = new Spy(place.open());
      failing.fail = true;
      await expect(ShardStore.open(failing, SPECS)).rejects.toThrow('disk full');
      expect(failing.closes).toBe(1); // an open refused after the backend opened closes it: the caller has no store to close
      expect((await place.open().keys()).sort()).toEqual(['all', 'space/s/3']);
      const store = await ShardStore.open(place.open(), SPECS);
      expect(await store.read((tx) => [tx.get('members', 'm'), tx.find('members', 'org', 'b'), tx.get('orgs', 'a'), tx.get('bodies', 's:h')])).toEqual([
        { id: 'm', org: 'a' },
        [{ id: 'n', org: 'b' }],
        { id: 'a' },
        { id: 's:h', space: 's', text: 'x' },
      ]);
      const keys = await place.open().keys();
      expect(keys).toContain('catalog');
      expect(keys).not.toContain('all');
      expect(keys).not.toContain('space/s/3');
    });
  });
}

engineContract('MemoryBackend', async () => {
  const backend = new MemoryBackend();
  return { open: () => backend };
});

engineContract('FileBackend', async () => {
  const dir = tempDir();
  return { open: () => new FileBackend(dir) };
});

// What an in-process command opens (src/transport/select.ts): the same contract, files read synchronously.
engineContract('FileBackend (sync reads)', async () => {
  const dir = tempDir();
  return { open: () => new FileBackend(dir, { syncReads: true }) };
});

// PostgreSQL: a fresh schema per test, its backends closed and the schema dropped after it.
const pgUrl = await postgresOrSkip();
const pgBackends = pgContractBackends(pgUrl, 'engine');
engineContract('PgBackend', pgBackends.setup, { shared: true, skip: !pgUrl, cleanup: pgBackends.cleanup });

/** A process that commits `write` to the store in `dir`, then ends without closing it: its journal stays, its handle goes. */
async function crashAfter(dir: string, write: (tx: NamedWriteTx) => void): Promise<void> {
  const backend = new FileBackend(dir);
  await (await ShardStore.open(backend, SPECS)).write(write);
  await backend.discard();
}

describe('FileBackend', () => {
  /** A store of `n` organizations, each in its shard (org/<id>): ~n/64 catalog entries per bucket. */
  async function orgsStore(n: number): Promise<string> {
    const dir = tempDir();
    const store = await ShardStore.open(new FileBackend(dir), SPECS);
    await store.write((tx) => {
      for (let i = 0; i < n; i++) tx.put('orgs', { id: `o${i}` });
    });
    await store.close();
    return dir;
  }

  it('a shard of rows sized by their text (TableSpec.heapPerTextChar) counts its text times it, its rows frozen with their fields', async () => {
    const dir = tempDir();
    const specs: TableSpec[] = [...SPECS, { name: 'sums', shard: (r) => `sum/${r.id}`, indexes: [], locateId: (id) => `sum/${id}`, heapPerTextChar: 3 }];
    let store = await ShardStore.open(new FileBackend(dir), specs);
    const rows = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`s${i}`, [i, '2026-01-01T00:00:00.000Z', null, 'inherit']]));
    await store.write((tx) => tx.put('sums', { id: 'g', rows }));
    await store.close();
    store = await ShardStore.open(new FileBackend(dir), specs);
    const before = store.stats().bytes;
    const row = await store.read((tx) => tx.get<{ id: string; rows: Record<string, unknown[]> }>('sums', 'g')!);
    const text = readFileSync(join(dir, 'store', 'sum__g.json'), 'utf8');
    // Not walked value by value (rows.ts measure would count each of the 200 entries).
    expect(store.stats().bytes - before).toBe(Math.round(text.length * 3) + 64);
    expect(Object.isFrozen(row) && Object.isFrozen(row.rows)).toBe(true);
    expect(row.rows.s7).toEqual([7, '2026-01-01T00:00:00.000Z', null, 'inherit']);
    await store.close();
  });

  it("with keepStrayTemps (an in-process command), leaves a crash's temp files in the shard folder to the next open without it", async () => {
    const dir = await orgsStore(3);
    const stray = join(dir, 'store', 'org__o1.json.123.abc.tmp');
    writeFileSync(stray, '{"cut');
    const sums = join(dir, 'checksums', '07.json.123.abc.tmp');
    writeFileSync(sums, '{"cut');
    let store = await ShardStore.open(new FileBackend(dir, { syncReads: true, keepStrayTemps: true }), SPECS);
    expect(await store.read((tx) => tx.get('orgs', 'o1')?.id)).toBe('o1');
    await store.close();
    // The shard folder is not listed (20,000 files at 10,000 spaces); the catalog's folder is.
    expect([existsSync(stray), existsSync(sums)]).toEqual([true, false]);
    store = await ShardStore.open(new FileBackend(dir), SPECS);
    await store.close();
    expect(existsSync(stray)).toBe(false);
  });

  it('docs serve (statAtOpen) knows a shard the catalog does not list is absent without opening its file; an in-process open still opens it', async () => {
    // Issue 28 item 1: ~200 such opens (never-written directory and summary buckets) in the workers' first passes.
    const dir = await orgsStore(3);
    const served = new FileBackend(dir, { statAtOpen: true });
    const store = await ShardStore.open(served, SPECS);
    const before = { ...served.shardReads };
    expect(await store.read((tx) => [tx.get('orgs', 'o1')?.id, tx.get('orgs', 'nope')?.id])).toEqual(['o1', undefined]);
    expect({ opened: served.shardReads.opened - before.opened, knownAbsent: served.shardReads.knownAbsent - before.knownAbsent }).toEqual({
      opened: 1,
      knownAbsent: 1,
    });
    // A shard its own commit created is read back from its file.
    await store.write((tx) => tx.put('orgs', { id: 'new' }));
    await store.close();
    const again = await ShardStore.open(new FileBackend(dir, { statAtOpen: true }), SPECS);
    expect(await again.read((tx) => tx.get('orgs', 'new')?.id)).toBe('new');
    await again.close();
    const plain = new FileBackend(dir);
    const inProcess = await ShardStore.open(plain, SPECS);
    const p0 = { ...plain.shardReads };
    expect(await inProcess.read((tx) => tx.get('orgs', 'nope')?.id)).toBeUndefined();
    expect(plain.shardReads.opened - p0.opened).toBeGreaterThanOrEqual(1); // a stray file there would be named (STRAY)
    expect(plain.shardReads.knownAbsent).toBe(0);
    await inProcess.close();
  });

  it('checks the catalog entries of the shards it loads, not every entry of their buckets', async () => {
    const dir = await orgsStore(640); // ~10 entries a bucket
    for (const syncReads of [true, false]) {
      const backend = new FileBackend(dir, { syncReads });
      const store = await ShardStore.open(backend, SPECS);
      const atOpen = { ...backend.catalogReads };
      expect(await store.read((tx) => ['o1', 'o2', 'o3'].map((id) => tx.get('orgs', id)?.id))).toEqual(['o1', 'o2', 'o3']);
      // One entry per shard loaded (parsing its bucket whole read ~10 each); a bucket file each.
      expect(backend.catalogReads.entries - atOpen.entries).toBe(3);
      expect(backend.catalogReads.files - atOpen.files).toBeLessThanOrEqual(3);
      await store.close();
    }
  });

  it('a catalog bucket damaged elsewhere: the loaded shard is still checked against its entry; an entry the damage took names the bucket', async () => {
    const dir = await orgsStore(640);
    const file = 'org__o1.json';
    const bucket = join(dir, 'checksums', bucketFile(sumBucket(file)));
    const sums = JSON.parse(readFileSync(bucket, 'utf8')) as Record<string, string>;
    // The bucket's other org shards, last in the order it is written again below.
    const rest = Object.keys(sums).filter((f) => f !== file);
    const others = [...rest.filter((f) => !f.startsWith('org__')), ...rest.filter((f) => f.startsWith('org__'))];
    expect(others.at(-1)).toMatch(/^org__/);
    // The shard changed in place (same size) and its entry intact, another entry made unreadable.
    const shard = join(dir, 'store', file);
    writeFileSync(shard, readFileSync(shard, 'utf8').replace('"o1"', '"x1"'));
    writeFileSync(bucket, JSON.stringify({ ...sums, [others.at(-1)!]: 'not a checksum' }));
    let store = await ShardStore.open(new FileBackend(dir, { syncReads: true }), SPECS);
    await expect(store.read((tx) => tx.get('orgs', 'o1'))).rejects.toThrow(`${file} does not match its checksum in the catalog`);
    // The damaged entry's shard: its entry is not found as docs writes it, so the bucket is read whole.
    await expect(store.read((tx) => tx.get('orgs', keyOf(others.at(-1)!).slice('org/'.length)))).rejects.toThrow(
      `checksums/${bucketFile(sumBucket(file))} is not a bucket of the catalog`,
    );
    await store.close();
    // Cut short after the shard's entry: the shard loads (its entry is whole), one listed after it does not.
    writeFileSync(shard, readFileSync(shard, 'utf8').replace('"x1"', '"o1"'));
    const text = JSON.stringify({ [file]: sums[file], ...Object.fromEntries(others.map((f) => [f, sums[f]!])) });
    writeFileSync(bucket, text.slice(0, text.length - 40));
    store = await ShardStore.open(new FileBackend(dir, { syncReads: true }), SPECS);
    expect(await store.read((tx) => tx.get('orgs', 'o1')?.id)).toBe('o1');
    await expect(store.read((tx) => tx.get('orgs', keyOf(others.at(-1)!).slice('org/'.length)))).rejects.toThrow('is not valid JSON');
    await store.close();
  });

  it('with sync reads, names a shard changed in place and a damaged catalog bucket when it loads them', async () => {
    const dir = tempDir();
    const store = await ShardStore.open(new FileBackend(dir), SPECS);
    await store.write((tx) => (tx.put('members', { id: 'm1', org: 'o1' }), tx.put('members', { id: 'm2', org: 'o2' })));
    await store.close();
    const changed = join(dir, 'store', 'org__o1.json');
    writeFileSync(changed, readFileSync(changed, 'utf8').replace('"o1"', '"o9"')); // same size: only the checksum tells
    const reader = await ShardStore.open(new FileBackend(dir, { syncReads: true }), SPECS);
    await expect(reader.read((tx) => tx.find('members', 'org', 'o1'))).rejects.toThrow(
      `data directory ${dir}: store/org__o1.json does not match its checksum in the catalog`,
    );
    expect(await reader.read((tx) => tx.find('members', 'org', 'o2'))).toHaveLength(1);
    await reader.close();
    const buckets = readdirSync(join(dir, 'checksums'));
    for (const b of buckets) writeFileSync(join(dir, 'checksums', b), '{"x":');
    // Refused at open: ShardStore.open closes the backend it opened (the file's leak check says so).
    const again = await ShardStore.open(new FileBackend(dir, { syncReads: true }), SPECS).catch((err) => err);
    expect(String(again?.message ?? again)).toMatch(
      new RegExp(`data directory ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: checksums/\\d+\\.json is not valid JSON`),
    );
  });

  it('a damaged shard fails only the operations that need it, not one loading a healthy shard alongside', async () => {
    const dir = tempDir();
    const store = await ShardStore.open(new FileBackend(dir), SPECS);
    await store.write((tx) => (tx.put('members', { id: 'm1', org: 'o1' }), tx.put('members', { id: 'm2', org: 'o2' })));
    await store.close();
    const changed = join(dir, 'store', 'org__o1.json');
    writeFileSync(changed, readFileSync(changed, 'utf8').replace('"o1"', '"o9"'));
    const reader = await ShardStore.open(new FileBackend(dir), SPECS);
    // Both shards in one batch (a listing), and meanwhile an operation on the healthy one only.
    const both = reader.read((tx) => [tx.find('members', 'org', 'o1'), tx.find('members', 'org', 'o2')]);
    const healthy = reader.read((tx) => tx.find('members', 'org', 'o2').length);
    await expect(both).rejects.toThrow('store/org__o1.json does not match its checksum');
    expect(await healthy).toBe(1);
    await reader.close();
  });

  it('has every acknowledged write on disk when the promise resolves', async () => {
    const dir = tempDir();
    const store = await ShardStore.open(new FileBackend(dir), SPECS);
    await Promise.all(Array.from({ length: 30 }, (_, i) => store.write((tx) => tx.put('members', { id: 'm' + i, org: 'o' + (i % 7) }))));
    // A second reader opening the directory now, without any close, sees all 30.
    const reader = await ShardStore.open(new FileBackend(dir), SPECS);
    expect(await reader.read((tx) => tx.all('members'))).toHaveLength(30);
    const shard = JSON.parse(readFileSync(join(dir, 'store', 'org__o0.json'), 'utf8'));
    expect(Object.keys(shard.members).sort()).toEqual(['m0', 'm14', 'm21', 'm28', 'm7']);
    await reader.close();
    await store.close();
  });

  it('completes a multi-shard commit whose manifest reached disk before a crash', async () => {
    const dir = tempDir();
    await crashAfter(dir, (tx) => tx.put('orgs', { id: 'a', v: 1 }));
    // Simulate a crash right after the commit point: temp files staged (shards and their catalog
    // buckets), manifest renamed, no renames.
    const a = JSON.stringify({ orgs: { a: { id: 'a', v: 2 } } });
    const b = JSON.stringify({ orgs: { b: { id: 'b', v: 2 } } });
    writeFileSync(join(dir, 'store', 'org__a.json.1.x.tmp'), a);
    writeFileSync(join(dir, 'store', 'org__b.json.1.y.tmp'), b);
    const renames = [
      ['store/org__a.json.1.x.tmp', 'store/org__a.json'],
      ['store/org__b.json.1.y.tmp', 'store/org__b.json'],
    ];
    const buckets = new Map<string, Record<string, string>>();
    for (const [file, text] of [
      ['org__a.json', a],
      ['org__b.json', b],
    ] as const) {
      const bf = bucketFile(sumBucket(file));
      if (!buckets.has(bf)) buckets.set(bf, existsSync(join(dir, 'checksums', bf)) ? JSON.parse(readFileSync(join(dir, 'checksums', bf), 'utf8')) : {});
      buckets.get(bf)![file] = catalogEntry(text);
    }
    for (const [bf, sums] of buckets) {
      writeFileSync(join(dir, 'checksums', bf + '.1.z.tmp'), JSON.stringify(sums));
      renames.push([`checksums/${bf}.1.z.tmp`, `checksums/${bf}`]);
    }
    writeFileSync(join(dir, 'commit.json'), JSON.stringify({ v: 2, renames, deletes: [] }));
    const store = await ShardStore.open(new FileBackend(dir), SPECS);
    expect(await store.read((tx) => [tx.get<any>('orgs', 'a').v, tx.get<any>('orgs', 'b').v])).toEqual([2, 2]);
    expect(existsSync(join(dir, 'commit.json'))).toBe(false);
    await store.close();
  });

  it('replays a manifest of an earlier version (paths from shards/, no catalog), then builds the catalog', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'shards'), { recursive: true });
    writeFileSync(join(dir, 'shards', 'catalog.json'), JSON.stringify({ $layout: { store: { id: 'store', layout: 2 } } }));
    writeFileSync(join(dir, 'shards', 'org__a.json.1.x.tmp'), JSON.stringify({ orgs: { a: { id: 'a', v: 2 } } }));
    writeFileSync(join(dir, 'commit.json'), JSON.stringify({ renames: [['org__a.json.1.x.tmp', 'org__a.json']], deletes: [] }));
    const store = await ShardStore.open(new FileBackend(dir), SPECS);
    expect(await store.read((tx) => tx.get<any>('orgs', 'a').v)).toBe(2);
    expect(readdirSync(join(dir, 'checksums')).length).toBeGreaterThan(0);
    await store.close();
  });

  it('discards temp files of a commit that never reached its commit point', async () => {
    const dir = tempDir();
    await crashAfter(dir, (tx) => tx.put('orgs', { id: 'a', v: 1 }));
    writeFileSync(join(dir, 'store', 'org__a.json.1.x.tmp'), '{"orgs":{"a":{"id":"a","v":'); // half-written
    const store = await ShardStore.open(new FileBackend(dir), SPECS);
    expect(await store.read((tx) => tx.get<any>('orgs', 'a').v)).toBe(1);
    expect(readdirSync(join(dir, 'store')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    await store.close();
  });

  it('writes several shards of one commit through the journal, and close leaves no journal', async () => {
    const dir = tempDir();
    const store = await ShardStore.open(new FileBackend(dir), SPECS);
    await store.write((tx) => {
      tx.put('orgs', { id: 'a' });
      tx.put('orgs', { id: 'b' });
    });
    expect(readdirSync(join(dir, 'store')).sort()).toEqual(['catalog.json', 'org__a.json', 'org__b.json']);
    expect(readdirSync(dir).sort()).toEqual(['checksums', 'journal', 'shards', 'store']);
    await store.close();
    expect(readdirSync(dir).sort()).toEqual(['checksums', 'shards', 'store']);
  });
});

describe('pins across a commit', () => {
  it('a read holding a shard that a commit replaces releases the old copy: the new one is left unpinned', async () => {
    const backend = new MemoryBackend();
    const store = await ShardStore.open(backend, SPECS);
    await store.write((tx) => {
      tx.put('orgs', { id: 'a', v: 1 });
      tx.put('orgs', { id: 'b', v: 1 });
    });
    (store as any).evict('org/b');
    // The read holds org/a while org/b is loaded; meanwhile a write replaces org/a.
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const load = backend.load.bind(backend);
    backend.load = async (keys) => {
      if (keys.includes('org/b')) await gate;
      return load(keys);
    };
    const reading = store.read((tx) => [tx.get('orgs', 'a'), tx.get('orgs', 'b')]);
    await new Promise((r) => setTimeout(r, 10));
    await store.write((tx) => void tx.put('orgs', { id: 'a', v: 2 }));
    open();
    await reading;
    // Pinned forever, it could never be evicted, nor replaced by a notice of another process.
    expect((store as any).cache.get('org/a').pins).toBe(0);
    await store.close();
  });
});

describe('rows put', () => {
  it('are frozen to their depths (objects in arrays in objects), as the committed rows readers share', async () => {
    const store = await ShardStore.open(new MemoryBackend(), SPECS);
    const row = { id: 'a', actor: { id: 'u' }, rows: [{ table: 't', id: 'x' }], path: { spaceId: 's' } };
    await store.write((tx) => void tx.put('orgs', row));
    const read = await store.read((tx) => tx.get<typeof row>('orgs', 'a')!);
    for (const o of [row, row.actor, row.rows, row.rows[0], row.path, read, read.rows[0]]) expect(Object.isFrozen(o)).toBe(true);
    await store.close();
  });

  it('missing shards, run again once they are loaded, however many operations run at once', async () => {
    const backend = new MemoryBackend();
    let store = await ShardStore.open(backend, SPECS);
    await store.write((tx) => {
      for (let i = 0; i < 6; i++) tx.put('orgs', { id: `o${i}`, v: i });
    });
    await store.close();
    store = await ShardStore.open(backend, SPECS);
    // Each operation misses its own shards (six loads) and its lazily made sets of misses.
    const sums = await Promise.all([
      store.read((tx) => [0, 1, 2].map((i) => tx.get<{ id: string; v: number }>('orgs', `o${i}`)!.v).reduce((a, b) => a + b)),
      store.write((tx) => [3, 4, 5].map((i) => tx.get<{ id: string; v: number }>('orgs', `o${i}`)!.v).reduce((a, b) => a + b)),
    ]);
    expect(sums).toEqual([3, 12]);
    await store.close();
  });
});

describe('copies carried by a notice of another process', () => {
  it('replace an older copy not in use; never a copy as new, and never a stale one by an older or equal version', async () => {
    const store = await ShardStore.open(new MemoryBackend(), SPECS);
    await store.write((tx) => void tx.put('orgs', { id: 'a', v: 1 }));
    const cache = (store as any).cache as Map<string, { version: number; stale?: boolean; data: ShardData }>;
    const v = cache.get('org/a')!.version;
    const notice = (version: number, value: number) => new Map([['org/a', { data: { orgs: { a: { id: 'a', v: value } } }, version, size: 0 }]]);
    const invalidate = (version: number, value: number) => (store as any).invalidate(['org/a'], notice(version, value));
    invalidate(v, 9); // as new as the copy: kept
    expect(await store.read((tx) => tx.get('orgs', 'a'))).toEqual({ id: 'a', v: 1 });
    invalidate(v + 1, 2); // newer: taken
    expect(cache.get('org/a')!.version).toBe(v + 1);
    expect(await store.read((tx) => tx.get('orgs', 'a'))).toEqual({ id: 'a', v: 2 });
    cache.get('org/a')!.stale = true; // e.g. a commit of ours whose outcome is unknown
    invalidate(v + 1, 7);
    expect(cache.has('org/a')).toBe(false); // dropped, to be read again, not taken from the notice
    await store.close();
  });

  it('replace a copy in use once it is used again, without reading it; a later notice without the shard leaves it to be read', async () => {
    const backend = new MemoryBackend();
    const store = await ShardStore.open(backend, SPECS);
    await store.write((tx) => {
      tx.put('orgs', { id: 'a', v: 1 });
      tx.put('orgs', { id: 'b', v: 1 });
    });
    const cache = (store as any).cache as Map<string, { version: number; stale?: boolean }>;
    const v = cache.get('org/a')!.version;
    const notice = (version: number, value: number) => new Map([['org/a', { data: { orgs: { a: { id: 'a', v: value } } }, version, size: 0 }]]);
    const loaded: string[] = [];
    let gate = Promise.resolve();
    const load = backend.load.bind(backend);
    backend.load = async (keys) => {
      loaded.push(...keys);
      if (keys.includes('org/b')) await gate;
      return load(keys);
    };
    /** A read holding org/a (its first run) while org/b is read; `during` runs meanwhile. */
    const holding = async (held: number, during: () => void) => {
      (store as any).evict('org/b');
      let open!: () => void;
      gate = new Promise<void>((r) => (open = r));
      const reading = store.read((tx) => [tx.get<any>('orgs', 'a')?.v, tx.get<any>('orgs', 'b')?.v]);
      const until = Date.now() + 5_000;
      while (!loaded.includes('org/b')) {
        if (Date.now() > until) throw new Error('the read did not reach org/b');
        await new Promise((r) => setTimeout(r, 1));
      }
      expect(cache.get('org/a')).toMatchObject({ version: held });
      during();
      open();
      return reading;
    };
    // Another process wrote org/a while the read held it: the read runs again over the copy the notice carried.
    expect(await holding(v, () => (store as any).invalidate(['org/a'], notice(v + 1, 2)))).toEqual([2, 1]);
    expect(loaded.filter((k) => k === 'org/a')).toEqual([]);
    expect(cache.get('org/a')!.version).toBe(v + 1);
    expect(cache.get('org/a')!.stale).toBeFalsy();
    // A second notice names it without carrying it (past the payload's bound): read again.
    const read = await holding(v + 1, () => {
      (store as any).invalidate(['org/a'], notice(v + 2, 3));
      (store as any).invalidate(['org/a']);
    });
    expect(loaded.filter((k) => k === 'org/a')).toEqual(['org/a']);
    expect(read).toEqual([1, 1]); // what the backend holds (the notices were made up)
    await store.close();
  });
});
