import { existsSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serve } from '../../server/serve.js';
import { openContext } from '../../src/open.js';
import { FileBackend } from '../../src/store/file-backend.js';
import { ShardStore } from '../../src/store/shard-store.js';
import type { TableSpec } from '../../src/store/port.js';
import { BIN, docs, spawnServe } from '../helpers/cli.js';
import { faultyDisk } from '../helpers/faulty-disk.js';
import { tempDir } from '../helpers/server.js';
import { fillDisk, mountTmpfs } from './tmpfs.js';

// A full disk recovers by itself: a commit that fails removes its temp files before it answers,
// so the first write after space is freed succeeds; the error names the cause and the data
// directory (503 over HTTP, the same line from the CLI), and no empty lock.json is left behind.
// A server whose start fails on a full disk exits 1 and releases its port.
// Two ways: through the FileBackend's `openFile` seam (always runs; a handle that writes half
// and throws ENOSPC), and on a real 12 MB tmpfs (runs where mounting one is allowed).

const SPECS: TableSpec[] = [{ name: 'orgs', shard: (r: any) => `org/${r.id}`, locateId: (id: string) => `org/${id}`, indexes: [] } as TableSpec];

/** Every temp file or manifest left in a data directory. */
function leftovers(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('.tmp') || e.name.startsWith('commit.json')) out.push(join(d, e.name));
    }
  };
  walk(dir);
  return out;
}

describe('full disk, through a fault-injecting file seam', () => {
  it('a failed commit leaves no temp file, names the cause and directory, and the next write succeeds once space is back', async () => {
    const dir = tempDir();
    const { disk, openFile } = faultyDisk();
    const store = await ShardStore.open(new FileBackend(dir, { openFile }), SPECS);
    await store.write((tx) => tx.put('orgs', { id: 'a', v: 1 }));
    // Full at once, and full part-way through a commit (b's file staged, the journal's record not:
    // a, which has a file already, is in the record only, written at the next checkpoint).
    for (const budget of [0, 1]) {
      disk.budget = budget;
      const err: any = await store.write((tx) => (tx.put('orgs', { id: 'a', v: 2 }), tx.put('orgs', { id: 'b', v: 2 }))).catch((e) => e);
      expect(err.kind).toBe('unavailable');
      expect(err.message).toContain('ENOSPC: no space left on device');
      expect(err.message).toContain(dir);
      expect(err.message.split('\n')).toHaveLength(1);
      expect(leftovers(dir)).toEqual([]);
    }
    disk.budget = Infinity;
    await store.write((tx) => tx.put('orgs', { id: 'c', v: 3 }));
    expect(await store.read((tx) => [tx.get<any>('orgs', 'a').v, tx.get('orgs', 'b'), tx.get<any>('orgs', 'c').v])).toEqual([1, undefined, 3]);
    await store.close();
    // What a restart reads agrees: the failed commits changed nothing, catalog included.
    const again = await ShardStore.open(new FileBackend(dir), SPECS);
    expect(await again.read((tx) => [tx.get<any>('orgs', 'a').v, tx.get('orgs', 'b'), tx.get<any>('orgs', 'c').v])).toEqual([1, undefined, 3]);
    await again.close();
  });
});

const fs = mountTmpfs(12);
const skip = 'skip' in fs ? fs.skip : undefined;
if (skip) console.warn(`full disk on tmpfs: skipped (${skip})`);
const disk = 'dir' in fs ? fs.dir : '';
afterAll(() => {
  if ('unmount' in fs) fs.unmount();
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as any;
      s.close(() => resolve(port));
    });
  });
const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

describe.skipIf(!!skip)('full disk, on a real 12 MB tmpfs', () => {
  it('writes answer 503 naming ENOSPC and the directory, and succeed again once space is freed (no restart)', async () => {
    const dir = join(disk, 'served');
    const filler = join(disk, 'filler');
    const token = 'gb_api_full_disk_owner';
    const served = await spawnServe(['--data', dir], { DOCS_BOOTSTRAP_TOKEN: token });
    try {
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(served.url + path, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: await res.json() };
      };
      const org = (await call('GET', '/v1/orgs')).body.items[0].id;
      expect((await call('POST', `/v1/orgs/${org}/spaces`, { title: 'before' })).status).toBe(201);
      const space = (await call('POST', `/v1/orgs/${org}/spaces`, { title: 'files' })).body.id;
      const cr = (await call('POST', `/v1/spaces/${space}/change-requests`, { subject: 'a file' })).body.id;
      fillDisk(disk, filler);
      // A file's bytes (a blob beside the shards) on a full disk: the same 503 and line, not a 500.
      const upload = await call('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, {
        changes: [
          {
            operation: 'insert_files',
            files: [{ name: 'big.bin', contentType: 'application/octet-stream', base64: Buffer.alloc(64 * 1024, 7).toString('base64') }],
          },
        ],
      });
      expect(upload.status).toBe(503);
      expect(upload.body.error.message).toBe(`data directory ${dir}: ENOSPC: no space left on device`);
      for (let i = 0; i < 3; i++) {
        const r = await call('POST', `/v1/orgs/${org}/spaces`, { title: `full ${i}` });
        expect(r.status).toBe(503);
        expect(r.body.error.message).toContain('ENOSPC: no space left on device');
        expect(r.body.error.message).toContain(dir);
      }
      expect(leftovers(dir)).toEqual([]);
      // The log line of the 503 says why.
      expect(served.output()).toMatch(/POST \/v1\/orgs\/\S+\/spaces 503 \S+ .*ENOSPC: no space left on device/);
      rmSync(filler);
      const after = await call('POST', `/v1/orgs/${org}/spaces`, { title: 'after' });
      expect(after.status).toBe(201);
      const titles = (await call('GET', `/v1/orgs/${org}/spaces`)).body.items.map((s: any) => s.title);
      expect(titles).toEqual(expect.arrayContaining(['before', 'after']));
      expect(titles.filter((t: string) => t.startsWith('full'))).toEqual([]);
    } finally {
      served.child.kill('SIGTERM');
      await served.exited;
      rmSync(filler, { force: true });
    }
  }, 60_000);

  it('the in-process CLI prints the one-line cause and leaves no lock.json', async () => {
    const dir = join(disk, 'cli');
    const filler = join(disk, 'filler-cli');
    expect((await docs(['orgs', 'list', '--data', dir])).status).toBe(0); // initialized
    fillDisk(disk, filler);
    try {
      const r = await docs(['spaces', 'list', '--data', dir]);
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toBe(`Error: data directory ${dir}: ENOSPC: no space left on device`);
      expect(existsSync(join(dir, 'lock.json'))).toBe(false);
    } finally {
      rmSync(filler, { force: true });
    }
    expect((await docs(['spaces', 'list', '--data', dir])).status).toBe(0);
  }, 60_000);

  it('serve() whose bootstrap cannot be written rejects with the cause and releases its port', async () => {
    const dir = join(disk, 'boot-inproc');
    const filler = join(disk, 'filler-boot-inproc');
    await (await openContext(dir)).store.close();
    fillDisk(disk, filler, 1);
    try {
      const port = await freePort();
      const err: any = await serve({ dataDir: dir, port }).then(
        (s) => (s.close(), new Error('started')),
        (e) => e,
      );
      expect(err.message).toContain('the write could not be made durable');
      expect(err.message).toContain('ENOSPC: no space left on device');
      expect(await portFree(port)).toBe(true);
      expect(existsSync(join(dir, 'lock.json'))).toBe(false);
    } finally {
      rmSync(filler, { force: true });
    }
  }, 60_000);

  it('docs serve whose bootstrap cannot be written exits 1 with the cause, and its port is free', async () => {
    const dir = join(disk, 'boot');
    const filler = join(disk, 'filler-boot');
    // A store opened once (catalog written) but never bootstrapped, then a disk with one page
    // left: enough for lock.json, not for the owner, organization and token.
    await (await openContext(dir)).store.close();
    fillDisk(disk, filler, 1);
    try {
      const port = await freePort();
      const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--data', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      const code = await new Promise<number | null>((resolve, reject) => {
        const t = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`docs serve still running after its start failed: ${err}`))), 20_000);
        child.on('exit', (c) => (clearTimeout(t), resolve(c)));
      });
      expect(code).toBe(1);
      expect(err).toContain('the write could not be made durable'); // bootstrap's write, after listening
      expect(err).toContain('ENOSPC: no space left on device');
      expect(err).toContain(dir);
      expect(await portFree(port)).toBe(true);
      expect(existsSync(join(dir, 'lock.json'))).toBe(false);
    } finally {
      rmSync(filler, { force: true });
    }
  }, 60_000);
});
