import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Low } from 'lowdb';
import type { LoadedShard, ShardBackend, ShardData } from './backend.js';
import { DurableJSONFile, stageFile, syncDir } from './durable-file.js';

const MANIFEST = 'commit.json';
const IO_CONCURRENCY = 16;
// `org/abc` is `org__abc.json`. A key with other characters than an id's (a hostile id in a URL:
// `%00`, `..`) is escaped, and one too long for a file name is named by its hash, so no key
// can reach outside the directory or fail with ENAMETOOLONG.
const MAX_NAME = 200;
function fileName(key: string): string {
  const name = key.split('/').map((seg) => encodeURIComponent(seg).replace(/^\.+/, (dots) => '%2E'.repeat(dots.length))).join('__');
  return (name.length > MAX_NAME ? '~' + createHash('sha256').update(key).digest('hex') : name) + '.json';
}
const keyOf = (file: string) => {
  const name = file.slice(0, -'.json'.length);
  return name.startsWith('~') ? name : name.split('__').map(decodeURIComponent).join('/');
};

/** Runs `fn` over `items`, `n` at a time. */
async function each<T>(items: T[], n: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

/**
 * One lowdb document per shard under `<dir>/shards`, read when the store asks for it. A commit
 * touching one shard is a single durable rename. A commit touching several stages every file
 * (fsynced temp files), then renames a manifest listing them into place: that rename is the
 * commit point. The renames follow, and the manifest is removed. On open, a manifest left by a
 * crash is replayed (renames are idempotent: a temp file already moved is skipped), and stray
 * temp files of commits that never reached their commit point are deleted. So a commit is all or
 * nothing. One process writes a directory (src/store/lock.ts), so versions only count commits.
 */
export class FileBackend implements ShardBackend {
  private readonly shardDir: string;
  private readonly versions = new Map<string, number>();

  constructor(readonly dir: string) {
    this.shardDir = join(dir, 'shards');
  }

  private adapter(key: string) {
    return new DurableJSONFile<ShardData>(join(this.shardDir, fileName(key)));
  }

  async open(): Promise<void> {
    await mkdir(this.shardDir, { recursive: true, mode: 0o700 });
    await this.recover();
  }

  async load(keys: string[]): Promise<Map<string, LoadedShard>> {
    const out = new Map<string, LoadedShard>();
    await each(keys, IO_CONCURRENCY, async (key) => {
      let text: string | undefined;
      try {
        text = await readFile(join(this.shardDir, fileName(key)), 'utf8');
      } catch (err: any) {
        if (err.code !== 'ENOENT') throw err;
      }
      // Through lowdb, so the document is what lowdb would read.
      const low = new Low<ShardData>({ read: async () => (text === undefined ? null : JSON.parse(text)), write: async () => {} }, {});
      await low.read();
      const version = text === undefined ? 0 : (this.versions.get(key) ?? 1);
      out.set(key, { data: low.data, version, size: text?.length ?? 0 });
    });
    return out;
  }

  async keys(): Promise<string[]> {
    return (await readdir(this.shardDir)).filter((f) => f.endsWith('.json')).map(keyOf);
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

  async commit(changes: Map<string, ShardData | null>): Promise<Map<string, number>> {
    const versions = new Map<string, number>();
    for (const [key, data] of changes) versions.set(key, data === null ? 0 : (this.versions.get(key) ?? 1) + 1);
    if (changes.size === 1) {
      const [[key, data]] = [...changes];
      const low = new Low<ShardData>(this.adapter(key!), data ?? {});
      if (data === null) await this.adapter(key!).remove();
      else await low.write();
    } else {
      const renames: [string, string][] = [];
      const deletes: string[] = [];
      await each([...changes], IO_CONCURRENCY, async ([key, data]) => {
        if (data === null) return void deletes.push(fileName(key));
        const tmp = await this.adapter(key).stage(data);
        renames.push([tmp.slice(this.shardDir.length + 1), fileName(key)]);
      });
      const manifestPath = join(this.dir, MANIFEST);
      const staged = await stageFile(manifestPath, JSON.stringify({ renames, deletes }));
      await rename(staged, manifestPath);
      await syncDir(this.dir); // commit point
      await each(renames, IO_CONCURRENCY, ([tmp, target]) => rename(join(this.shardDir, tmp), join(this.shardDir, target)));
      await each(deletes, IO_CONCURRENCY, (f) => unlink(join(this.shardDir, f)).catch(() => {}));
      await syncDir(this.shardDir);
      await unlink(manifestPath);
    }
    for (const [key, v] of versions) {
      if (v === 0) this.versions.delete(key);
      else this.versions.set(key, v);
    }
    return versions;
  }

  async close(): Promise<void> {}
}
