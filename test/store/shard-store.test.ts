import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FilePersistence, MemoryPersistence, type Persistence, type ShardData } from '../../src/store/persistence.js';
import { ShardStore } from '../../src/store/shard-store.js';
import type { TableSpec } from '../../src/store/port.js';
import { tempDir } from '../helpers/server.js';

const SPECS: TableSpec[] = [
  { name: 'orgs', shard: (r) => `org/${r.id}`, indexes: [] },
  { name: 'members', shard: (r) => `org/${r.org}`, indexes: ['org', 'tags'] },
];

/** Persistence wrapper that records what each commit touched, and can be made to fail. */
class Spy implements Persistence {
  commits: string[][] = [];
  fail = false;
  constructor(readonly inner: Persistence) {}
  load() {
    return this.inner.load();
  }
  async commit(changes: Map<string, ShardData | null>) {
    if (this.fail) throw new Error('disk full');
    this.commits.push([...changes.keys()].sort());
    return this.inner.commit(changes);
  }
}

describe('ShardStore', () => {
  it('commits writes and reads them back; a throwing write changes nothing', async () => {
    const store = await ShardStore.open(new MemoryPersistence(), SPECS);
    await store.write((tx) => tx.put('orgs', { id: 'a', title: 'A' }));
    await expect(
      store.write((tx) => {
        tx.put('orgs', { id: 'b', title: 'B' });
        tx.put('orgs', { id: 'a', title: 'changed' });
        throw new Error('rule broken');
      }),
    ).rejects.toThrow('rule broken');
    expect(await store.read((tx) => tx.all('orgs'))).toEqual([{ id: 'a', title: 'A' }]);
  });

  it('freezes rows so that services cannot change committed data in place', async () => {
    const store = await ShardStore.open(new MemoryPersistence(), SPECS);
    await store.write((tx) => tx.put('orgs', { id: 'a', title: 'A', nested: { x: 1 } }));
    const row = (await store.read((tx) => tx.get<any>('orgs', 'a')))!;
    expect(() => (row.title = 'B')).toThrow();
    expect(() => (row.nested.x = 2)).toThrow();
  });

  it('groups concurrent writes into few commits, each write seeing the ones before it', async () => {
    const spy = new Spy(new MemoryPersistence());
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

  it('rewrites only the shards a write touches', async () => {
    const spy = new Spy(new MemoryPersistence());
    const store = await ShardStore.open(spy, SPECS);
    await store.write((tx) => {
      for (let i = 0; i < 20; i++) tx.put('orgs', { id: 'o' + i });
    });
    spy.commits = [];
    await store.write((tx) => tx.put('members', { id: 'm1', org: 'o3' }));
    expect(spy.commits).toEqual([['org/o3']]);
  });

  it('rejects the batch when the commit fails and keeps the committed state', async () => {
    const spy = new Spy(new MemoryPersistence());
    const store = await ShardStore.open(spy, SPECS);
    await store.write((tx) => tx.put('orgs', { id: 'a', v: 1 }));
    spy.fail = true;
    await expect(store.write((tx) => tx.put('orgs', { id: 'a', v: 2 }))).rejects.toMatchObject({ kind: 'unavailable' });
    expect(await store.read((tx) => tx.get<any>('orgs', 'a').v)).toBe(1);
  });

  it('finds rows by index, including array fields and uncommitted changes in a transaction', async () => {
    const store = await ShardStore.open(new MemoryPersistence(), SPECS);
    await store.write((tx) => {
      tx.put('members', { id: 'm1', org: 'x', tags: ['a', 'b'] });
      tx.put('members', { id: 'm2', org: 'x', tags: ['b'] });
      tx.put('members', { id: 'm3', org: 'y', tags: [] });
    });
    expect(await store.read((tx) => tx.find('members', 'org', 'x').map((r) => r.id).sort())).toEqual(['m1', 'm2']);
    expect(await store.read((tx) => tx.find('members', 'tags', 'a').map((r) => r.id))).toEqual(['m1']);
    const seen = await store.write((tx) => {
      tx.delete('members', 'm1');
      tx.put('members', { id: 'm3', org: 'x', tags: [] });
      return tx.find('members', 'org', 'x').map((r) => r.id).sort();
    });
    expect(seen).toEqual(['m2', 'm3']);
    expect(await store.read((tx) => tx.find('members', 'org', 'x').map((r) => r.id).sort())).toEqual(['m2', 'm3']);
    expect(await store.read((tx) => tx.find('members', 'tags', 'a'))).toEqual([]);
  });

  it('moves a row between shards when its shard key changes, and drops empty shards', async () => {
    const dir = tempDir();
    const store = await ShardStore.open(new FilePersistence(dir), SPECS);
    await store.write((tx) => tx.put('members', { id: 'm', org: 'a' }));
    await store.write((tx) => tx.put('members', { id: 'm', org: 'b' }));
    expect(readdirSync(join(dir, 'shards')).sort()).toEqual(['org__b.json']);
    await store.close();
    const again = await ShardStore.open(new FilePersistence(dir), SPECS);
    expect(await again.read((tx) => tx.find('members', 'org', 'b'))).toEqual([{ id: 'm', org: 'b' }]);
  });

  it('moves a row found in another shard than its table says (an older layout) on its next write, and deletes it there', async () => {
    const dir = tempDir();
    // An older version kept members in one shared shard.
    const old = await ShardStore.open(new FilePersistence(dir), [{ name: 'members', shard: () => 'all', indexes: ['org'] }, SPECS[0]!]);
    await old.write((tx) => {
      tx.put('members', { id: 'm', org: 'a', v: 1 });
      tx.put('members', { id: 'n', org: 'a', v: 1 });
    });
    await old.close();
    const store = await ShardStore.open(new FilePersistence(dir), SPECS);
    expect((await store.read((tx) => tx.find('members', 'org', 'a'))).length).toBe(2);
    await store.write((tx) => tx.put('members', { id: 'm', org: 'a', v: 2 }));
    const onDisk = (f: string) => JSON.parse(readFileSync(join(dir, 'shards', f), 'utf8')).members;
    expect(Object.keys(onDisk('all.json'))).toEqual(['n']);
    expect(onDisk('org__a.json')).toEqual({ m: { id: 'm', org: 'a', v: 2 } });
    await store.write((tx) => tx.delete('members', 'n'));
    expect(readdirSync(join(dir, 'shards')).sort()).toEqual(['org__a.json']);
    await store.close();
    const again = await ShardStore.open(new FilePersistence(dir), SPECS);
    expect(await again.read((tx) => tx.all('members'))).toEqual([{ id: 'm', org: 'a', v: 2 }]);
  });
});

describe('FilePersistence', () => {
  it('has every acknowledged write on disk when the promise resolves', async () => {
    const dir = tempDir();
    const store = await ShardStore.open(new FilePersistence(dir), SPECS);
    await Promise.all(Array.from({ length: 30 }, (_, i) => store.write((tx) => tx.put('members', { id: 'm' + i, org: 'o' + (i % 7) }))));
    // A second reader opening the directory now, without any close, sees all 30.
    const reader = await ShardStore.open(new FilePersistence(dir), SPECS);
    expect(await reader.read((tx) => tx.all('members'))).toHaveLength(30);
    const shard = JSON.parse(readFileSync(join(dir, 'shards', 'org__o0.json'), 'utf8'));
    expect(Object.keys(shard.members).sort()).toEqual(['m0', 'm14', 'm21', 'm28', 'm7']);
  });

  it('completes a multi-shard commit whose manifest reached disk before a crash', async () => {
    const dir = tempDir();
    const p = new FilePersistence(dir);
    await p.load();
    await p.commit(new Map([['org/a', { orgs: { a: { id: 'a', v: 1 } } }]]));
    // Simulate a crash right after the commit point: temp files staged, manifest renamed, no renames.
    writeFileSync(join(dir, 'shards', 'org__a.json.1.x.tmp'), JSON.stringify({ orgs: { a: { id: 'a', v: 2 } } }));
    writeFileSync(join(dir, 'shards', 'org__b.json.1.y.tmp'), JSON.stringify({ orgs: { b: { id: 'b', v: 2 } } }));
    writeFileSync(join(dir, 'commit.json'), JSON.stringify({ renames: [['org__a.json.1.x.tmp', 'org__a.json'], ['org__b.json.1.y.tmp', 'org__b.json']], deletes: [] }));
    const store = await ShardStore.open(new FilePersistence(dir), SPECS);
    expect(await store.read((tx) => tx.all<any>('orgs').map((r) => [r.id, r.v]).sort())).toEqual([['a', 2], ['b', 2]]);
    expect(existsSync(join(dir, 'commit.json'))).toBe(false);
  });

  it('discards temp files of a commit that never reached its commit point', async () => {
    const dir = tempDir();
    const p = new FilePersistence(dir);
    await p.load();
    await p.commit(new Map([['org/a', { orgs: { a: { id: 'a', v: 1 } } }]]));
    writeFileSync(join(dir, 'shards', 'org__a.json.1.x.tmp'), '{"orgs":{"a":{"id":"a","v":'); // half-written
    const store = await ShardStore.open(new FilePersistence(dir), SPECS);
    expect(await store.read((tx) => tx.get<any>('orgs', 'a').v)).toBe(1);
    expect(readdirSync(join(dir, 'shards'))).toEqual(['org__a.json']);
  });

  it('writes several shards of one commit through the manifest and cleans up', async () => {
    const dir = tempDir();
    const store = await ShardStore.open(new FilePersistence(dir), SPECS);
    await store.write((tx) => {
      tx.put('orgs', { id: 'a' });
      tx.put('orgs', { id: 'b' });
    });
    expect(readdirSync(join(dir, 'shards')).sort()).toEqual(['org__a.json', 'org__b.json']);
    expect(readdirSync(dir).sort()).toEqual(['shards']);
  });
});
