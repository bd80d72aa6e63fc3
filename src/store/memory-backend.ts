import type { LoadedShard, ShardBackend, ShardData } from './backend.js';

/**
 * Shards in memory, for unit tests and `--data`-less contexts: the same engine and code path as
 * on disk. Data is copied through JSON both ways, as a real backend would, so a test cannot pass
 * by sharing objects with the engine.
 */
export class MemoryBackend implements ShardBackend {
  private readonly shards = new Map<string, { text: string; version: number }>();
  async open() {}
  async load(keys: string[]): Promise<Map<string, LoadedShard>> {
    return new Map(
      keys.map((k) => {
        const s = this.shards.get(k);
        return [k, s ? { data: JSON.parse(s.text), version: s.version, size: s.text.length } : { data: {}, version: 0, size: 0 }];
      }),
    );
  }
  async keys() {
    return [...this.shards.keys()];
  }
  async commit(changes: Map<string, ShardData | null>): Promise<Map<string, number>> {
    const versions = new Map<string, number>();
    for (const [key, data] of changes) {
      if (data === null) {
        this.shards.delete(key);
        versions.set(key, 0);
      } else {
        const version = (this.shards.get(key)?.version ?? 0) + 1;
        this.shards.set(key, { text: JSON.stringify(data), version });
        versions.set(key, version);
      }
    }
    return versions;
  }
  async close() {}
}
