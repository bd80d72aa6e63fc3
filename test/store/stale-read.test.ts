import { describe, expect, it } from 'vitest';
import { ShardConflict, type LoadedShard, type ShardBackend, type ShardData } from '../../src/store/backend.js';
import { ShardStore } from '../../src/store/shard-store.js';
import type { TableSpec } from '../../src/store/port.js';

// Two processes on one shared store (as with PostgreSQL), with the timing under the test's
// control: a shard another process changes while a batch is between its functions and its
// commit. The batch must not commit what it computed from the old copy over the new one.

const SPECS: TableSpec[] = [
  { name: 'orgs', shard: (r) => `org/${r.id}`, indexes: [], locateId: (id) => `org/${id}` },
  // `role` has no locator: found through the directory the store keeps.
  { name: 'members', shard: (r) => `org/${r.org}`, indexes: ['org', 'role'], locate: { org: (v) => `org/${v}` } },
];

/** Shards shared by several backends: commits check versions (as PgBackend does) and notify the others. */
class Shared {
  shards = new Map<string, { text: string; version: number }>();
  backends = new Set<Proc>();
}

class Proc implements ShardBackend {
  private listeners: ((keys: string[]) => void)[] = [];
  /** A load of this key waits for this promise (the test's moment to act meanwhile). */
  gate: { key: string; open: Promise<void>; reached: () => void } | undefined;
  /** Hears no notification (one that would arrive late). */
  deaf = false;
  constructor(private readonly shared: Shared) {
    shared.backends.add(this);
  }
  async open() {}
  async keys() {
    return [...this.shared.shards.keys()];
  }
  async load(keys: string[]): Promise<Map<string, LoadedShard>> {
    const g = this.gate;
    if (g && keys.includes(g.key)) {
      this.gate = undefined;
      g.reached();
      await g.open;
    }
    return new Map(
      keys.map((k) => {
        const s = this.shared.shards.get(k);
        return [k, s ? { data: JSON.parse(s.text), version: s.version, size: s.text.length } : { data: {}, version: 0, size: 0 }];
      }),
    );
  }
  async commit(changes: Map<string, ShardData | null>, expected: Map<string, number>) {
    const differ = [...expected].filter(([k, v]) => (this.shared.shards.get(k)?.version ?? 0) !== v).map(([k]) => k);
    if (differ.length) throw new ShardConflict(differ);
    const versions = new Map<string, number>();
    for (const [key, data] of changes) {
      const version = (this.shared.shards.get(key)?.version ?? 0) + 1;
      if (data === null) this.shared.shards.delete(key);
      else this.shared.shards.set(key, { text: JSON.stringify(data), version });
      versions.set(key, data === null ? 0 : version);
    }
    for (const other of this.shared.backends) if (other !== this && !other.deaf) for (const l of other.listeners) l([...changes.keys()]);
    return versions;
  }
  subscribe(fn: (keys: string[]) => void) {
    this.listeners.push(fn);
  }
  async close() {}
}

const increment = (tx: any) => {
  const n = tx.get('orgs', 'a').n + 1;
  tx.put('orgs', { id: 'a', n });
  return n;
};

describe('a batch on a shared store', () => {
  it('runs again when a shard it read changed before its commit (no lost update)', async () => {
    const shared = new Shared();
    const pa = new Proc(shared);
    const a = await ShardStore.open(pa, SPECS);
    const b = await ShardStore.open(new Proc(shared), SPECS);
    await a.write((tx) => tx.put('orgs', { id: 'a', n: 1 }));
    await a.read((tx) => tx.get('orgs', 'a')); // org/a loaded in A

    // A's batch: the first function reads and changes org/a (loaded); the second reaches org/z,
    // not loaded. While org/z loads, B increments org/a.
    let reached!: () => void;
    let open!: () => void;
    const gateReached = new Promise<void>((r) => (reached = r));
    pa.gate = { key: 'org/z', open: new Promise<void>((r) => (open = r)), reached };
    const first = a.write(increment);
    const second = a.write((tx) => tx.put('orgs', { id: 'z', seen: tx.get('orgs', 'z') ?? null }));
    await gateReached;
    expect(await b.write(increment)).toBe(2);
    open();
    await Promise.all([first, second]);

    // Both increments count: A's function ran again on B's version.
    expect(await first).toBe(3);
    const fresh = await ShardStore.open(new Proc(shared), SPECS);
    expect(await fresh.read((tx) => tx.get<any>('orgs', 'a').n)).toBe(3);
  });

  it('finds by index only rows of the shards it consulted (never an old copy of a row deleted elsewhere)', async () => {
    const shared = new Shared();
    const b = await ShardStore.open(new Proc(shared), SPECS);
    await b.write((tx) => tx.put('members', { id: 'm', org: 'x', role: 'admin' }));
    // A has org/x loaded, not the directory of roles; it hears of B's next commit late.
    const pa = new Proc(shared);
    const a = await ShardStore.open(pa, SPECS);
    expect(await a.read((tx) => tx.get('members', 'm'))).toMatchObject({ org: 'x' });
    pa.deaf = true;
    await b.write((tx) => tx.delete('members', 'm'));
    // The directory A now loads says no member has the role; its old org/x still holds m.
    expect(await a.read((tx) => tx.find('members', 'role', 'admin'))).toEqual([]);
  });
});
