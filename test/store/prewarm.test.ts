import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { LoadedShard } from '../../src/store/backend.js';
import { FileBackend } from '../../src/store/file-backend.js';
import type { TableSpec } from '../../src/store/port.js';
import { ShardStore } from '../../src/store/shard-store.js';
import { tempDir } from '../helpers/server.js';

// The store's side of a prewarm (server/prewarm.ts): which shards a closing server records
// (hotShards: most recently used first, within a memory bound) and how a starting one loads them
// again (prewarm: in order, within a memory budget, a deadline and the cache's own bound).

const SPECS: TableSpec[] = [{ name: 'orgs', shard: (r) => `org/${r.id}`, indexes: [], locateId: (id) => `org/${id}` }];
const pad = 'x'.repeat(2000);

/** The stores the test opened (storeOf's open), closed after it. */
const opened: ShardStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

/** A file store of `n` orgs (one shard each), closed; a backend that counts the shards it loads. */
async function storeOf(n: number) {
  const dir = tempDir();
  const writer = await ShardStore.open(new FileBackend(dir), SPECS);
  for (let i = 0; i < n; i++) await writer.write((tx) => tx.put('orgs', { id: `o${i}`, pad }));
  await writer.close();
  const loads: string[] = [];
  const open = async (cacheBytes?: number) => {
    const backend = new FileBackend(dir);
    const load = backend.load.bind(backend);
    backend.load = (keys: string[]): Promise<Map<string, LoadedShard>> => {
      loads.push(...keys);
      return load(keys);
    };
    const store = await ShardStore.open(backend, SPECS, { cacheBytes });
    opened.push(store);
    loads.length = 0;
    return store;
  };
  return { open, loads, dir };
}

it('records the loaded shards most recently used first, within a memory bound, without the resident ones nor absent ones', async () => {
  const { open } = await storeOf(6);
  const store = await open();
  const base = store.stats().bytes;
  for (const i of [2, 0, 5, 1]) await store.read((tx) => tx.get('orgs', `o${i}`));
  await store.read((tx) => tx.get('orgs', 'never-written')); // absent: nothing to load again
  expect(store.hotShards(Number.MAX_SAFE_INTEGER)).toEqual(['org/o1', 'org/o5', 'org/o0', 'org/o2']);
  const one = (store.stats().bytes - base) / 4; // one org's shard in memory
  expect(store.hotShards(2.5 * one)).toEqual(['org/o1', 'org/o5']);
  expect(store.hotShards(0)).toEqual([]);
  await store.close();
});

it('loads a record in order until its memory budget, and marks its first shard the most recently used', async () => {
  const { open, loads } = await storeOf(20);
  const probe = await open();
  await probe.read((tx) => tx.get('orgs', 'o0'));
  const one = probe.stats().bytes - (await open()).stats().bytes; // the memory one org's shard takes
  const keys = Array.from({ length: 20 }, (_, i) => `org/o${i}`);

  const store = await open();
  expect(await store.prewarm(keys, 3.5 * one, () => false, 2)).toBe(4); // two batches of two: the budget passed after the second
  expect(loads).toEqual(['org/o0', 'org/o1', 'org/o2', 'org/o3']);
  expect(store.hotShards(Number.MAX_SAFE_INTEGER)).toEqual(['org/o0', 'org/o1', 'org/o2', 'org/o3']);
  // What it loaded is what a read finds: no load for o2.
  loads.length = 0;
  await store.read((tx) => tx.get('orgs', 'o2'));
  expect(loads).toEqual([]);
});

it('loads nothing past its deadline, and never past the cache bound', async () => {
  const { open, loads } = await storeOf(20);
  const keys = Array.from({ length: 20 }, (_, i) => `org/o${i}`);
  const late = await open();
  expect(await late.prewarm(keys, Number.MAX_SAFE_INTEGER, () => true)).toBe(0);
  expect(loads).toEqual([]);
  let calls = 0;
  const soon = await open();
  expect(await soon.prewarm(keys, Number.MAX_SAFE_INTEGER, () => ++calls > 2, 1)).toBe(2); // the deadline checked between batches
  const small = await open(12_000);
  await small.prewarm(keys, Number.MAX_SAFE_INTEGER, () => false, 1);
  expect(small.stats().bytes).toBeLessThanOrEqual(12_000);
  expect(small.stats().shards).toBeLessThan(10);
});

it('takes shards the store cannot hold as absent, and stops at a damaged one without failing', async () => {
  const { open, loads } = await storeOf(2);
  const store = await open();
  expect(await store.prewarm(['org/gone', 'x\u0000y', 'org/o1'], Number.MAX_SAFE_INTEGER, () => false, 1)).toBe(2); // the control character: never asked for
  expect(loads).toEqual(['org/gone', 'org/o1']);
  expect(store.hotShards(Number.MAX_SAFE_INTEGER)).toEqual(['org/o1']);
});

it('stops at a damaged shard without failing: the read that needs it names the damage', async () => {
  const { open, dir } = await storeOf(3);
  const file = join(dir, 'store', 'org__o1.json');
  writeFileSync(file, readFileSync(file, 'utf8').replace('"o1"', '"oX"')); // same size, another checksum
  const store = await open();
  expect(await store.prewarm(['org/o0', 'org/o1', 'org/o2'], Number.MAX_SAFE_INTEGER, () => false, 1)).toBe(1);
  expect(store.hotShards(Number.MAX_SAFE_INTEGER)).toEqual(['org/o0']);
  await expect(store.read((tx) => tx.get('orgs', 'o1'))).rejects.toThrow(/org__o1\.json does not match its checksum/);
});
