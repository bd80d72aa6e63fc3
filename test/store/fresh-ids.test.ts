import { describe, expect, it } from 'vitest';
import type { LoadedShard, ShardBackend, ShardData } from '../../src/store/backend.js';
import { MemoryBackend } from '../../src/store/memory-backend.js';
import type { TableSpec } from '../../src/store/port.js';
import { ShardStore } from '../../src/store/shard-store.js';

// A commit adding rows of fresh ids (TableSpec.freshIds: the audit log's events, `<org>:<uuid>`)
// to an immutable group reads and checks the group's index and the segments it merges, not every
// segment: on a warm server the lookup of each new id used the whole group, so every ring move
// checked (and, on PostgreSQL, locked and read) every segment of the organization's log, and a
// merge by the other server refused it (issue 28 item 7).

const spec = (freshIds: boolean): TableSpec[] => [
  {
    name: 'auditEvents',
    shard: (r) => `audit/${r.organization}`,
    indexes: ['organization'],
    immutable: true,
    locateId: (id) => `audit/${id.slice(0, id.indexOf(':'))}`,
    locate: { organization: (v) => `audit/${v}` },
    segmentFanOut: 8,
    freshIds,
  },
];

class Spy implements ShardBackend {
  loads: string[] = [];
  checked: string[][] = [];
  constructor(readonly inner: ShardBackend) {}
  open = () => this.inner.open();
  keys = () => this.inner.keys();
  close = () => this.inner.close();
  load(keys: string[]): Promise<Map<string, LoadedShard>> {
    this.loads.push(...keys);
    return this.inner.load(keys);
  }
  commit(changes: Map<string, ShardData | null>, expected: Map<string, number>) {
    this.checked.push([...expected.keys()]);
    return this.inner.commit(changes, expected);
  }
}

const event = (n: number) => ({ id: `o:${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`, organization: 'o', n });
const segments = (keys: string[]) => keys.filter((k) => /^audit\/o\/\d+$/.test(k));

async function appendAfterFive(freshIds: boolean) {
  const spy = new Spy(new MemoryBackend());
  const store = await ShardStore.open(spy, spec(freshIds));
  // Five commits of one event: five segments of the lowest tier (eight are merged into one).
  for (let n = 0; n < 5; n++) await store.write((tx) => tx.put('auditEvents', event(n)));
  // Warm: every segment is loaded, as on a server that listed or pruned the log.
  expect(await store.read((tx) => tx.find('auditEvents', 'organization', 'o').length)).toBe(5);
  spy.checked = [];
  await store.write((tx) => tx.put('auditEvents', event(5)));
  const checked = spy.checked.flat();
  const all = await store.read((tx) => tx.find<{ id: string; n: number }>('auditEvents', 'organization', 'o').map((e) => e.n));
  await store.close();
  return { checked, all };
}

describe('rows of fresh ids added to an immutable group', () => {
  it('check the group index and no segment they do not merge', async () => {
    const { checked, all } = await appendAfterFive(true);
    expect(checked).toContain('audit/o');
    expect(segments(checked)).toEqual(['audit/o/6']); // the one it writes (absent: version 0)
    expect(all.sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('without the flag, the lookups of the new ids used every segment of the group', async () => {
    const { checked } = await appendAfterFive(false);
    expect(segments(checked).length).toBe(6);
  });

  it('still read and merge the segments the commit absorbs, and every row stays found', async () => {
    const spy = new Spy(new MemoryBackend());
    let store = await ShardStore.open(spy, spec(true));
    for (let n = 0; n < 7; n++) await store.write((tx) => tx.put('auditEvents', event(n)));
    await store.close();
    // Cold: the eighth merges the seven before it, so it loads them, and only them with the index.
    store = await ShardStore.open(spy, spec(true));
    spy.loads = [];
    await store.write((tx) => tx.put('auditEvents', event(7)));
    expect(segments(spy.loads).length).toBe(7);
    expect(segments(await spy.keys()).length).toBe(1);
    const all = await store.read((tx) => tx.find<{ id: string; n: number }>('auditEvents', 'organization', 'o').map((e) => e.n));
    expect(all.sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    await store.close();
  });
});
