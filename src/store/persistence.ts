import { mkdir, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Low, Memory } from 'lowdb';
import { DurableJSONFile, stageFile, syncDir } from './durable-file.js';

/** A shard on disk: `{ [table]: { [id]: row } }`. */
export type ShardData = Record<string, Record<string, any>>;

/** How shards reach durable storage. `commit` is atomic across all the shards it is given. */
export interface Persistence {
  load(): Promise<Map<string, ShardData>>;
  /** `null` removes a shard. Resolves once every change is durable. */
  commit(changes: Map<string, ShardData | null>): Promise<void>;
}

/** In-memory shards (lowdb's Memory adapter) for unit tests: same code path, no disk. */
export class MemoryPersistence implements Persistence {
  private shards = new Map<string, Low<ShardData>>();
  async load() {
    return new Map([...this.shards].map(([k, low]) => [k, low.data]));
  }
  async commit(changes: Map<string, ShardData | null>) {
    for (const [key, data] of changes) {
      if (data === null) {
        this.shards.delete(key);
        continue;
      }
      const low = this.shards.get(key) ?? new Low<ShardData>(new Memory<ShardData>(), {});
      low.data = data;
      await low.write();
      this.shards.set(key, low);
    }
  }
}

const MANIFEST = 'commit.json';
const LOAD_CONCURRENCY = 4;
const fileName = (key: string) => key.replace(/\//g, '__') + '.json';
const keyOf = (file: string) => file.slice(0, -'.json'.length).replace(/__/g, '/');

/**
 * One lowdb document per shard under `<dir>/shards`. A commit touching one shard is a single
 * durable rename. A commit touching several stages every file (fsynced temp files), then
 * renames a manifest listing them into place: that rename is the commit point. The renames
 * follow, and the manifest is removed. On start, a manifest left by a crash is replayed
 * (renames are idempotent: a temp file already moved is skipped), and stray temp files of
 * commits that never reached their commit point are deleted. So a commit is all or nothing.
 */
export class FilePersistence implements Persistence {
  private readonly shardDir: string;
  private shards = new Map<string, Low<ShardData>>();

  constructor(readonly dir: string) {
    this.shardDir = join(dir, 'shards');
  }

  private low(key: string): Low<ShardData> {
    let low = this.shards.get(key);
    if (!low) {
      low = new Low<ShardData>(new DurableJSONFile<ShardData>(join(this.shardDir, fileName(key))), {});
      this.shards.set(key, low);
    }
    return low;
  }

  async load(): Promise<Map<string, ShardData>> {
    await mkdir(this.shardDir, { recursive: true, mode: 0o700 });
    await this.recover();
    const out = new Map<string, ShardData>();
    const files = (await readdir(this.shardDir)).filter((f) => f.endsWith('.json'));
    // A few files at a time: each file's text is garbage once parsed, so the peak memory of a
    // start is the rows plus a few files' text, not the rows plus the text of every file.
    let next = 0;
    const reader = async () => {
      while (next < files.length) {
        const key = keyOf(files[next++]!);
        const low = this.low(key);
        await low.read();
        out.set(key, low.data);
      }
    };
    await Promise.all(Array.from({ length: LOAD_CONCURRENCY }, reader));
    // In directory order, whatever order the reads finished in.
    return new Map(files.map((f) => [keyOf(f), out.get(keyOf(f))!]));
  }

  private async recover(): Promise<void> {
    const manifestPath = join(this.dir, MANIFEST);
    let manifest: { renames: [string, string][]; deletes: string[] } | undefined;
    try {
      manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
    } catch (err: any) {
      if (err.code !== 'ENOENT') throw err;
    }
    if (manifest) {
      for (const [tmp, target] of manifest.renames) {
        await rename(join(this.shardDir, tmp), join(this.shardDir, target)).catch((e) => {
          if (e.code !== 'ENOENT') throw e;
        });
      }
      for (const f of manifest.deletes) await unlink(join(this.shardDir, f)).catch(() => {});
      await syncDir(this.shardDir);
      await unlink(manifestPath);
    }
    for (const f of await readdir(this.shardDir)) {
      if (f.endsWith('.tmp')) await unlink(join(this.shardDir, f));
    }
    for (const f of await readdir(this.dir)) {
      if (f.startsWith(MANIFEST) && f.endsWith('.tmp')) await unlink(join(this.dir, f));
    }
  }

  async commit(changes: Map<string, ShardData | null>): Promise<void> {
    if (changes.size === 1) {
      const [[key, data]] = [...changes];
      const low = this.low(key!);
      if (data === null) {
        await (low.adapter as DurableJSONFile<ShardData>).remove();
        this.shards.delete(key!);
      } else {
        low.data = data!;
        await low.write();
      }
      return;
    }
    const renames: [string, string][] = [];
    const deletes: string[] = [];
    await Promise.all(
      [...changes].map(async ([key, data]) => {
        if (data === null) return void deletes.push(fileName(key));
        const tmp = await (this.low(key).adapter as DurableJSONFile<ShardData>).stage(data);
        renames.push([tmp.slice(this.shardDir.length + 1), fileName(key)]);
      }),
    );
    const manifestPath = join(this.dir, MANIFEST);
    const staged = await stageFile(manifestPath, JSON.stringify({ renames, deletes }));
    await rename(staged, manifestPath);
    await syncDir(this.dir); // commit point
    await Promise.all(renames.map(([tmp, target]) => rename(join(this.shardDir, tmp), join(this.shardDir, target))));
    await Promise.all(deletes.map((f) => unlink(join(this.shardDir, f)).catch(() => {})));
    await syncDir(this.shardDir);
    await unlink(manifestPath);
    for (const [key, data] of changes) {
      if (data === null) this.shards.delete(key);
      else this.low(key).data = data;
    }
  }
}
