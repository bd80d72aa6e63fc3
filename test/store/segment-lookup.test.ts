import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoadedShard, ShardBackend, ShardData } from '../../src/store/backend.js';
import { doctor } from '../../src/store/doctor.js';
import { FileBackend } from '../../src/store/file-backend.js';
import { SEGMENTS, SEGMENT_BYTES, segmentsOf } from '../../src/store/layout.js';
import { MemoryBackend } from '../../src/store/memory-backend.js';
import type { TableSpec } from '../../src/store/port.js';
import { filterOf, idHash, mayHold } from '../../src/store/segment-filter.js';
import { ShardStore } from '../../src/store/shard-store.js';
import { pgContractBackends, postgresOrSkip } from '../helpers/postgres.js';
import { tempDir } from '../helpers/server.js';

// Reading one row of an immutable group (a page body by its id) loads the group's index and the
// segments whose filter may hold the id, not every segment of the group (issue 28 item 5: the
// first render of a page after a restart read the whole space's content). A lookup never misses
// a row that exists; segments written without a filter are read as before.

// Named as the store's own table of page bodies, so that docs doctor (which knows the store's tables) can adopt its segments.
const SPECS: TableSpec[] = [
  {
    name: 'pageContents',
    shard: (r) => `space/${r.space}/c`,
    indexes: ['space'],
    immutable: true,
    locateId: (id) => `space/${id.split(':')[0]}/c`,
    locate: { space: (v) => `space/${v}/c` },
  },
];

class Spy implements ShardBackend {
  loads: string[] = [];
  commits: string[][] = [];
  constructor(readonly inner: ShardBackend) {}
  open = () => this.inner.open();
  keys = () => this.inner.keys();
  close = () => this.inner.close();
  load(keys: string[]): Promise<Map<string, LoadedShard>> {
    this.loads.push(...keys);
    return this.inner.load(keys);
  }
  commit(changes: Map<string, ShardData | null>, expected: Map<string, number>) {
    this.commits.push([...changes.keys()]);
    return this.inner.commit(changes, expected);
  }
}

const TEXT = 'x'.repeat(2000);
const row = (b: number, i: number) => ({ id: `s:${b}-${i}`, space: 's', text: TEXT });
const segmentKeys = (keys: string[]) => keys.filter((k) => k.startsWith('space/s/c/'));

/** 800 rows of ~2 KB in 40 commits: several sealed segments and a tail. */
async function seed(backend: ShardBackend) {
  const store = await ShardStore.open(backend, SPECS);
  for (let b = 0; b < 40; b++) await store.write((tx) => Array.from({ length: 20 }, (_, i) => tx.put('pageContents', row(b, i))));
  await store.close();
}

interface Place {
  open(): ShardBackend;
}

function contract(name: string, make: () => Promise<Place>, { skip = false, cleanup = async () => {} } = {}) {
  describe.skipIf(skip)(`one row of an immutable group, on ${name}`, () => {
    afterEach(cleanup);

    it('is read from the segments that may hold it, not from every segment; every row is found, an absent one is not', async () => {
      const place = await make();
      await seed(place.open());
      const all = segmentKeys(await place.open().keys());
      expect(all.length).toBeGreaterThanOrEqual(6); // ~1.6 MB cut at SEGMENT_BYTES
      const spy = new Spy(place.open());
      const store = await ShardStore.open(spy, SPECS);
      expect(await store.read((tx) => tx.get<any>('pageContents', 's:17-3')?.id)).toBe('s:17-3');
      // The one segment holding it, and rarely one whose filter lets the id through.
      expect(segmentKeys(spy.loads).length).toBeLessThanOrEqual(2);
      expect(await store.read((tx) => tx.get('pageContents', 's:99-0'))).toBeUndefined();
      const again = await ShardStore.open(place.open(), SPECS);
      const found = await again.read((tx) => Array.from({ length: 800 }, (_, n) => tx.get('pageContents', `s:${Math.floor(n / 20)}-${n % 20}`)));
      expect(found.filter(Boolean).length).toBe(800);
      expect(await again.read((tx) => tx.find('pageContents', 'space', 's').length)).toBe(800);
      await Promise.all([store.close(), again.close()]);
    });

    it('a table read whole (a page tree, walked from its root) loads its whole group at once, not segment by segment of the walk', async () => {
      const place = await make();
      await seed(place.open());
      const all = segmentKeys(await place.open().keys());
      /** Runs of a walk where each row found leads to the next (as a node to its children): one lookup at a time. */
      const walk = async (specs: TableSpec[]) => {
        const spy = new Spy(place.open());
        const store = await ShardStore.open(spy, specs);
        let runs = 0;
        const walked = await store.read((tx) => {
          runs++;
          let n = 0;
          for (let b = 0; b < 40 && tx.get('pageContents', `s:${b}-0`); b++) n++;
          return n;
        });
        await store.close();
        return { walked, runs, loads: segmentKeys(spy.loads) };
      };
      const whole = await walk(SPECS.map((s) => ({ ...s, readWhole: true })));
      expect(whole.walked).toBe(40);
      // The group's index missing, then the first row's segment, then the rest of the group, then the walk.
      expect(whole.runs).toBe(4);
      expect(whole.loads.sort()).toEqual(all.sort());
      // Looked up by filter, the same walk finds its segments one run after another.
      expect((await walk(SPECS)).runs).toBeGreaterThan(4);
      // Runs that may miss before the group is loaded whole (navigation rows, read along a path).
      const along = await walk(SPECS.map((s) => ({ ...s, partialRuns: 100 })));
      expect(along.walked).toBe(40);
      expect(along.loads.length).toBeLessThan(all.length + 1);
      expect(along.runs).toBeGreaterThan((await walk(SPECS)).runs);
    });

    it('one row of a table read whole loads the segments that may hold it, not the group (a published page reads its own node)', async () => {
      const place = await make();
      await seed(place.open());
      const spy = new Spy(place.open());
      const store = await ShardStore.open(
        spy,
        SPECS.map((s) => ({ ...s, readWhole: true })),
      );
      expect(await store.read((tx) => tx.get<any>('pageContents', 's:17-3')?.id)).toBe('s:17-3');
      expect(segmentKeys(spy.loads).length).toBeLessThanOrEqual(2);
      await store.close();
    });

    it('a write checks that a row exists, adds, merges and deletes loading only the segments it needs', async () => {
      const place = await make();
      await seed(place.open());
      const spy = new Spy(place.open());
      const store = await ShardStore.open(spy, SPECS);
      const index = (await place.open().load(['space/s/c'])).get('space/s/c')!.data;
      const sealed = segmentsOf(index).filter((s) => (s.bytes ?? 0) >= SEGMENT_BYTES / 2);
      expect(sealed.length).toBeGreaterThanOrEqual(5);
      // A row already stored (content-addressed): nothing is written.
      spy.commits = [];
      await store.write((tx) => tx.put('pageContents', row(3, 4)));
      expect(spy.commits).toEqual([]);
      await store.write((tx) => tx.put('pageContents', row(50, 0)));
      await store.write((tx) => tx.delete('pageContents', 's:5-5'));
      const read = new Set(segmentKeys(spy.loads));
      // Of the sealed segments, at most those holding s:3-4 and s:5-5 (and a false positive) were read.
      expect(sealed.filter((s) => read.has(s.id)).length).toBeLessThanOrEqual(3);
      const again = await ShardStore.open(place.open(), SPECS);
      expect(
        await again.read((tx) => [tx.get('pageContents', 's:5-5'), tx.get<any>('pageContents', 's:50-0')?.id, tx.find('pageContents', 'space', 's').length]),
      ).toEqual([undefined, 's:50-0', 800]);
      await Promise.all([store.close(), again.close()]);
    });

    it('a walk from row to row (each found once the one before is loaded) loads the rest of the group after two runs, not one run per segment', async () => {
      const place = await make();
      const first = await ShardStore.open(place.open(), SPECS);
      // A chain across commits: row n names row n + 1, in 40 commits of 20 rows (many segments).
      for (let b = 0; b < 40; b++)
        await first.write((tx) => Array.from({ length: 20 }, (_, i) => tx.put('pageContents', { ...row(b, i), next: b * 20 + i + 1 })));
      await first.close();
      const spy = new Spy(place.open());
      const store = await ShardStore.open(spy, SPECS);
      spy.loads = [];
      let runs = 0;
      const walked = await store.read((tx) => {
        runs++;
        let n = 0;
        // Backwards, so that each step is likely in another segment than the one before.
        for (let at = 799; at >= 0; at--, n++) {
          const r = tx.get<any>('pageContents', `s:${Math.floor(at / 20)}-${at % 20}`);
          if (!r) throw new Error(`row ${at} is missing`);
        }
        return n;
      });
      expect(walked).toBe(800);
      expect(runs).toBeLessThanOrEqual(5); // index, two segments found by their filter, then the rest at once
      await store.close();
    });

    it('segments written before filters are read as before, and get their filter at the next write to the group', async () => {
      const place = await make();
      await seed(place.open());
      const raw = place.open();
      await raw.open();
      const got = (await raw.load(['space/s/c'])).get('space/s/c')!;
      const old: ShardData = { [SEGMENTS]: {} };
      for (const s of segmentsOf(got.data)) old[SEGMENTS]![s.id] = { id: s.id, seq: s.seq, rows: s.rows };
      await raw.commit(new Map([['space/s/c', old]]), new Map([['space/s/c', got.version]]));
      await raw.close();
      const spy = new Spy(place.open());
      const store = await ShardStore.open(spy, SPECS);
      expect(await store.read((tx) => tx.get<any>('pageContents', 's:17-3')?.id)).toBe('s:17-3');
      expect(segmentKeys(spy.loads).length).toBe(segmentsOf(old).length); // all of them, as before
      await store.write((tx) => tx.put('pageContents', row(60, 0)));
      // Another backend opens the place (a data directory's catalog is written at checkpoints: open replays the journal).
      const peek = place.open();
      await peek.open();
      const now = (await peek.load(['space/s/c'])).get('space/s/c')!.data;
      expect(segmentsOf(now).every((s) => s.filter)).toBe(true);
      await peek.close();
      const spy2 = new Spy(place.open());
      const again = await ShardStore.open(spy2, SPECS);
      expect(await again.read((tx) => [tx.get<any>('pageContents', 's:17-3')?.id, tx.get<any>('pageContents', 's:60-0')?.id])).toEqual(['s:17-3', 's:60-0']);
      expect(segmentKeys(spy2.loads).length).toBeLessThanOrEqual(3);
      await Promise.all([store.close(), again.close()]);
    });
  });
}

contract('MemoryBackend', async () => {
  const b = new MemoryBackend();
  return { open: () => b };
});
contract('FileBackend', async () => {
  const dir = tempDir();
  return { open: () => new FileBackend(dir) };
});
const pgUrl = await postgresOrSkip();
const pgBackends = pgContractBackends(pgUrl, 'segments', { ignoreCloseErrors: true });
contract('PgBackend', pgBackends.setup, { skip: !pgUrl, cleanup: pgBackends.cleanup });

describe('segment filters', () => {
  it('never leave out an id they were made of, and let few others through', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => `space-${i % 7}:${(i * 2654435761).toString(16)}`);
    const f = filterOf(ids);
    for (const id of ids) expect(mayHold(f, idHash(id))).toBe(true);
    let through = 0;
    for (let i = 0; i < 20_000; i++) if (mayHold(f, idHash(`other:${i}`))) through++;
    expect(through / 20_000).toBeLessThan(0.005);
  });

  it('docs doctor names a filter that leaves out a row of its segment, and --repair drops it (the rows are found again)', async () => {
    const dir = tempDir();
    await seed(new FileBackend(dir));
    const b = new FileBackend(dir);
    await b.open();
    const got = (await b.load(['space/s/c'])).get('space/s/c')!;
    const [first] = segmentsOf(got.data);
    const broken: ShardData = { [SEGMENTS]: { ...got.data[SEGMENTS], [first!.id]: { ...first!, filter: filterOf(['nothing:here']) } } };
    // (and a root shard, which a store has: doctor names a store without one)
    await b.commit(
      new Map<string, ShardData>([
        ['space/s/c', broken],
        ['root', { meta: { x: { id: 'x' } } }],
      ]),
    );
    await b.close();
    const report = await doctor(dir);
    expect(report.damaged.map((d) => d.problem)).toEqual([expect.stringMatching(new RegExp(`^the filter of segment ${first!.id} leaves out row s:`))]);
    const repaired = await doctor(dir, { repair: true });
    expect(repaired.plan?.correct).toEqual([expect.stringContaining(`the filter of segment ${first!.id} is dropped`)]);
    expect((await doctor(dir)).damaged).toEqual([]);
    const store = await ShardStore.open(new FileBackend(dir), SPECS);
    const firstIds = Object.keys((await new FileBackend(dir).load([first!.id])).get(first!.id)!.data.pageContents!);
    expect(await store.read((tx) => firstIds.every((id) => tx.get('pageContents', id)))).toBe(true);
    await store.close();
  });

  it('docs doctor --adopt of a segment changed in place drops its filter when it leaves out a row (the rows it adopts are found)', async () => {
    const dir = tempDir();
    await seed(new FileBackend(dir));
    const b = new FileBackend(dir);
    await b.commit(new Map<string, ShardData>([['root', { meta: { x: { id: 'x' } } }]]));
    const index = (await b.load(['space/s/c'])).get('space/s/c')!.data;
    const [seg] = segmentsOf(index);
    await b.close();
    const file = join(dir, 'store', `${seg!.id.replaceAll('/', '__')}.json`);
    const data = JSON.parse(readFileSync(file, 'utf8'));
    data.pageContents['s:restored'] = { id: 's:restored', space: 's', text: 'from a backup' };
    writeFileSync(file, JSON.stringify(data));
    expect((await doctor(dir)).damaged.map((d) => d.problem)).toContainEqual(expect.stringMatching(/^the filter of segment .* leaves out row s:restored/));
    await doctor(dir, { adopt: true });
    expect((await doctor(dir)).damaged.map((d) => d.problem)).toEqual([]);
    const store = await ShardStore.open(new FileBackend(dir), SPECS);
    expect(await store.read((tx) => tx.get<any>('pageContents', 's:restored')?.text)).toBe('from a backup');
    await store.close();
  });
});
