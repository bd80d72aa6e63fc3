import type { ShardBackend, ShardData } from './backend.js';
import { CATALOG_KEY, DIR, LAYOUT, LAYOUT_VERSION, dirKey, dirValues, directoryFields } from './layout.js';
import type { TableSpec } from './port.js';

/**
 * Rewrites a store of layout 1 (read whole at every start; space rows in their organization's
 * shard, page bodies in 16 buckets per space) into the current layout: every row in the shard
 * its table names now, immutable rows in one segment per group, and the directories. One commit
 * of the backend (a manifest on disk, a transaction in PostgreSQL), catalog included: a crash
 * before its commit point leaves layout 1 as it was, to be migrated at the next open.
 */
export async function migrateLayout(backend: ShardBackend, specs: Map<string, TableSpec>, keys: string[]): Promise<void> {
  const out = new Map<string, ShardData>();
  const at = (key: string) => {
    let d = out.get(key);
    if (!d) out.set(key, (d = {}));
    return d;
  };
  const old = await backend.load(keys);
  for (const [key, { data }] of old) {
    for (const [table, rows] of Object.entries(data)) {
      const spec = specs.get(table);
      if (!spec) {
        Object.assign((at(key)[table] ??= {}), rows); // a table this version does not know: kept where it was
        continue;
      }
      for (const row of Object.values(rows) as any[]) {
        const home = spec.shard(row);
        const shard = spec.immutable ? `${home}/1` : home;
        (at(shard)[table] ??= {})[row.id] = row;
        for (const f of directoryFields(spec)) {
          for (const v of dirValues(row, f)) ((at(dirKey(table, f, v))[DIR] ??= {})[v] ??= {})[row.id] = shard;
        }
        if (spec.immutable) {
          const seg = ((at(home).$segments ??= {})[shard] ??= { id: shard, seq: 1, rows: 0 });
          seg.rows++;
        }
      }
    }
  }
  const changes = new Map<string, ShardData | null>(out);
  for (const key of keys) if (!out.has(key)) changes.set(key, null);
  changes.set(CATALOG_KEY, { [LAYOUT]: { store: { id: 'store', layout: LAYOUT_VERSION } } });
  await backend.commit(changes, new Map([...old].map(([k, s]) => [k, s.version])));
}
