import { expect, test, vi } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { commitToScratch, rollingBack, type Changes } from '../../server/warm-up.js';
import { RateLimiter } from '../../server/rate-limit.js';
import { serve } from '../../server/serve.js';
import { cachedModuleWork } from '../../src/contract/cached-module.js';
import { openContext } from '../../src/open.js';
import { FileBackend } from '../../src/store/file-backend.js';
import { dirKey } from '../../src/store/layout.js';
import type { ShardStore } from '../../src/store/shard-store.js';
import { Spaces } from '../../src/spaces/tables.js';
import { dataDirWithSpace, tempDir } from '../helpers/server.js';

// Issue 28 item 1: a fresh `docs serve`'s first write ran the write's body validator (its module),
// the audit scope, the store's write path and the service for the first time. The warm-up runs
// one write (a space's title set to the one it has) on the store through `rollingBack`
// (server/warm-up.ts): the same path, nothing committed, the shards its commit would rewrite
// loaded; then commits the rows it would have committed to a scratch store (in memory, and the
// files of a folder in the temp folder: `commitToScratch`), so that the process's first real
// commit is not the first run of the commit's code. In the isolated project: which modules a
// process has loaded is the process's, and another file of a shared worker may have loaded them;
// the spies on prototypes are the process's too.

test('a write through rollingBack runs in the store and answers its result, and nothing is committed', async () => {
  const ctx = await openContext(tempDir());
  try {
    const id = 'space-1';
    await ctx.store.write((tx) => tx.put(Spaces, { id, title: 'Before' } as any));
    const generation = ctx.store.generation?.();
    const given: Changes[] = [];
    const rolled = rollingBack(ctx.store, (c) => given.push(c));
    const seen = await rolled.write((tx) => {
      const row = tx.get(Spaces, id)!;
      tx.put(Spaces, { ...row, title: 'After' });
      return tx.get(Spaces, id)!.title; // the write sees its own change
    });
    expect(seen).toBe('After');
    // The rows it would have committed are given to `seen` (the warm-up commits them in memory).
    expect(given).toHaveLength(1);
    expect([...given[0]!.get(Spaces)!.values()].map((r) => (r as { title?: string } | null)?.title)).toEqual(['After']);
    expect(ctx.store.generation?.()).toBe(generation);
    expect(await ctx.store.read((tx) => tx.get(Spaces, id)?.title)).toBe('Before');
    // A refusal is the write's own, as without it.
    await expect(
      rolled.write(() => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    // Reads and the rest of the store are the store's.
    expect(rolled.generation?.()).toBe(generation);
    expect(await rolled.read((tx) => tx.get(Spaces, id)?.title)).toBe('Before');
  } finally {
    await ctx.store.close();
  }
}, 60_000);

test("the warm-up's write loads what a first PATCH of a space loaded, and commits nothing", async () => {
  const { dir, auth, space } = await dataDirWithSpace('Warm');
  const served = await serve({ dataDir: dir, port: 0, warmUp: true });
  try {
    expect(served.warmedUp?.slice(-2)).toEqual([
      { read: 'updateSpaceById (rolled back)', status: 200 },
      { read: 'updateSpaceById (committed in scratch)', status: 200 },
    ]);
    const generation = served.ctx.store.generation?.();
    expect(await served.ctx.store.read((tx) => tx.get(Spaces, space)?.title)).toBe('Warm');
    // What the write's commit rewrites was loaded by the rolled-back write's plan: the space's
    // entry in the spaces' directory (the first PATCH read it from disk before its commit).
    expect((served.ctx.store as ShardStore).loaded(dirKey(Spaces, 'id', space))).toBe(true);
    // The first PATCH loads no module: its path, query and body validators were loaded before ready.
    const loaded = cachedModuleWork.loaded;
    const res = await fetch(`${served.url}/v1/spaces/${space}`, { method: 'PATCH', headers: auth, body: '{"title":"Renamed"}' });
    expect(res.status).toBe(200);
    await res.text();
    expect(cachedModuleWork.loaded).toBe(loaded);
    expect(served.ctx.store.generation?.()).not.toBe(generation);
  } finally {
    await served.close();
  }
}, 60_000);

/** Every file of `dir` (recursively) and its bytes. */
function files(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) out.set(join(e.parentPath, e.name), readFileSync(join(e.parentPath, e.name), 'latin1'));
  return out;
}

test("commitToScratch commits a write's rows twice in memory and to the files of a temp folder it removes, and nothing of the caller's store", async () => {
  const dir = tempDir();
  const ctx = await openContext(dir);
  const commits = vi.spyOn(FileBackend.prototype, 'commit');
  const discards = vi.spyOn(FileBackend.prototype, 'discard');
  try {
    await ctx.store.write((tx) => tx.put(Spaces, { id: 'space-1', title: 'Before' } as any));
    const generation = ctx.store.generation?.();
    let changes: Changes | undefined;
    await rollingBack(ctx.store, (c) => (changes = c)).write((tx) => tx.put(Spaces, { ...tx.get(Spaces, 'space-1')!, title: 'After' }));
    const before = files(dir);
    commits.mockClear();
    await commitToScratch(changes!);
    // Two commits of a file backend in a folder of its own in the temp folder (the journal opened
    // and synced, files staged, renamed, then rewritten through the journal), closed without a
    // checkpoint and removed.
    const scratch = commits.mock.contexts.map((b) => (b as FileBackend).dir);
    expect(scratch).toHaveLength(2);
    expect(new Set(scratch).size).toBe(1);
    expect(dirname(scratch[0]!)).toBe(tmpdir());
    expect(discards.mock.contexts.map((b) => (b as FileBackend).dir)).toEqual([scratch[0]]);
    expect(existsSync(scratch[0]!)).toBe(false);
    expect(files(dir)).toEqual(before);
    expect(ctx.store.generation?.()).toBe(generation);
    expect(await ctx.store.read((tx) => tx.get(Spaces, 'space-1')?.title)).toBe('Before');
    // A row it cannot store is the scratch store's refusal, not the caller's store's.
    await expect(commitToScratch(new Map([['no-such-table', new Map([['x', { id: 'x' }]])]]))).rejects.toThrow();
  } finally {
    commits.mockRestore();
    discards.mockRestore();
    await ctx.store.close();
  }
}, 60_000);

test("the warm-up's requests pass limits of their own: the limits' code runs, the server's limits count nothing of them", async () => {
  const { dir, auth } = await dataDirWithSpace('Warm');
  const limits = vi.spyOn(RateLimiter.prototype, 'authenticate');
  let served: Awaited<ReturnType<typeof serve>> | undefined;
  try {
    served = await serve({ dataDir: dir, port: 0, warmUp: true, rateLimit: 5 });
    // The GET and the refused PATCH, each through a limiter made for it.
    expect(limits.mock.contexts).toHaveLength(2);
    expect(new Set(limits.mock.contexts).size).toBe(2);
    const res = await fetch(`${served.url}/v1/user`, { headers: auth });
    expect(res.status).toBe(200);
    await res.text();
    expect(limits.mock.contexts).toHaveLength(3);
    expect(limits.mock.contexts.slice(0, 2)).not.toContain(limits.mock.contexts[2]);
    // The server's limit of 5 a minute for this token: the warm-up's requests took none of it.
    expect(res.headers.get('x-ratelimit-remaining')).toBe('4');
  } finally {
    limits.mockRestore();
    await served?.close();
  }
}, 60_000);

test("a start's warm-up writes nothing to the data directory but what a start without it writes", async () => {
  const { dir } = await dataDirWithSpace('Warm');
  const before = files(dir);
  const served = await serve({ dataDir: dir, port: 0, warmUp: true });
  try {
    expect(served.warmedUp?.at(-1)).toEqual({ read: 'updateSpaceById (committed in scratch)', status: 200 });
    // The lock file is the running server's own; every other file is as it was (no journal opened).
    const now = files(dir);
    for (const f of [...now.keys()]) if (f.includes('lock')) now.delete(f);
    for (const f of [...before.keys()]) if (f.includes('lock')) before.delete(f);
    expect(now).toEqual(before);
  } finally {
    await served.close();
  }
}, 60_000);
