import { execFileSync, spawn } from 'node:child_process';
import * as tar from 'tar';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { PREWARM_BYTES, PREWARM_FILE, prewarm, readRecord, recordCache } from '../../server/prewarm.js';
import { serve } from '../../server/serve.js';
import { backupHeld } from '../../src/store/backup.js';
import type { ShardStore } from '../../src/store/shard-store.js';
import { dataDirWithSpace } from '../helpers/server.js';
import { pageChanges } from '../helpers/page-changes.js';

// Issue 28 items 1 and 5: a first read of a space's content after a restart spent most of its
// time loading the space's shards (~700 KB for 200 pages). `docs serve` records the shards its
// cache held when it closes, and the next `docs serve` of the directory loads them again before
// ready, within a budget (server/prewarm.ts). A hint only: no record, a damaged or a stale one
// loads nothing it should not and never fails a start; in-process servers without `prewarm` (and
// the CLI's commands) neither read nor write it.

const storeOf = (served: { ctx: { store: unknown } }) => served.ctx.store as ShardStore;
/** The shard keys the server's store asks its backend for from now on. */
function loadsOf(served: { ctx: { store: unknown } }): string[] {
  const backend = storeOf(served).backend;
  const load = backend.load.bind(backend);
  const keys: string[] = [];
  backend.load = (ks) => {
    keys.push(...ks);
    return load(ks);
  };
  return keys;
}

/** Pages with bodies in `space`, merged through `url`. */
async function addPages(url: string, auth: Record<string, string>, space: string, n: number) {
  const ok = async (path: string, body: unknown) => {
    const res = await fetch(`${url}/v1${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
    expect(res.status, `${path} ${await res.clone().text()}`).toBeLessThan(300);
    return res.json() as Promise<{ id: string }>;
  };
  const cr = await ok(`/spaces/${space}/change-requests`, { subject: 'Pages' });
  const changes = pageChanges(n);
  await ok(`/spaces/${space}/change-requests/${cr.id}/content?compat=false`, { changes });
  await ok(`/spaces/${space}/change-requests/${cr.id}/merge`, {});
}

test('a closing server records its cache; the next loads it before ready, and its first content read loads no shard of the space', async () => {
  const { dir, auth, space } = await dataDirWithSpace('Prewarmed');
  const content = async (url: string) => {
    const res = await fetch(`${url}/v1/spaces/${space}/content`, { headers: auth });
    expect(res.status).toBe(200);
    return (await res.text()).replaceAll(url, 'URL');
  };
  const first = await serve({ dataDir: dir, port: 0, prewarm: true });
  expect(first.prewarmed).toEqual({ recorded: 0, loaded: 0, bytes: 0, ms: 0 }); // the first after the seeding: no record
  let answer: string;
  try {
    await addPages(first.url, auth, space, 40);
    answer = await content(first.url);
    expect(JSON.parse(answer).pages).toHaveLength(10);
  } finally {
    await first.close();
  }
  const recorded = readRecord(dir);
  for (const k of [`space/${space}/rev`, `space/${space}/n`, `space/${space}/c`]) expect(recorded).toContain(k);
  expect(recorded).not.toContain('root');

  // Its budget of memory, with time enough on a loaded machine (25 ms by default).
  const second = await serve({ dataDir: dir, port: 0, prewarm: { bytes: PREWARM_BYTES, ms: 10_000 } });
  try {
    expect(second.prewarmed).toMatchObject({ recorded: recorded.length, loaded: recorded.length });
    expect(second.prewarmed!.bytes).toBeGreaterThan(0);
    for (const k of recorded) expect(storeOf(second).loaded(k), k).toBe(true);
    const loads = loadsOf(second);
    expect(await content(second.url)).toBe(answer);
    expect(loads.filter((k) => k.includes(space))).toEqual([]);
  } finally {
    await second.close();
  }
}, 60_000);

test('a server without prewarm (tests, in-process commands) neither writes nor reads a record', async () => {
  const { dir, auth, space } = await dataDirWithSpace('Not prewarmed');
  expect(existsSync(join(dir, PREWARM_FILE))).toBe(false); // dataDirWithSpace's server closed without it
  const a = await serve({ dataDir: dir, port: 0, prewarm: true });
  await (await fetch(`${a.url}/v1/spaces/${space}/content`, { headers: auth })).text();
  await a.close();
  const record = readFileSync(join(dir, PREWARM_FILE), 'utf8');
  const b = await serve({ dataDir: dir, port: 0 });
  try {
    expect(b.prewarmed).toBeUndefined();
    expect(storeOf(b).loaded(`space/${space}/rev`)).toBe(false);
  } finally {
    await b.close();
  }
  expect(readFileSync(join(dir, PREWARM_FILE), 'utf8')).toBe(record);
}, 60_000);

test('a damaged, foreign or stale record loads nothing it should not and never fails a start', async () => {
  const { dir, auth } = await dataDirWithSpace('Damaged record');
  const file = join(dir, PREWARM_FILE);
  for (const text of ['', '{"format":1,"shards":["space/', '[]', '{"format":2,"shards":["root"]}', '{"format":1,"shards":"space/x"}', 'x'.repeat(300_000)]) {
    writeFileSync(file, text);
    expect(readRecord(dir), text.slice(0, 40)).toEqual([]);
  }
  // Not a regular file: a pipe would hold the start in its read. The writer here sends a record
  // after a second, so that a reader that opened the pipe gets it (and the test fails) instead of
  // hanging; one that does not open it leaves the writer waiting, killed after.
  rmSync(file);
  execFileSync('mkfifo', [file]);
  const writer = spawn('sh', ['-c', `sleep 1; printf '%s' '{"format":1,"shards":["space/fifo"]}' > "$0"`, file], { stdio: 'ignore' });
  try {
    expect(readRecord(dir)).toEqual([]);
  } finally {
    writer.kill('SIGKILL');
    rmSync(file);
  }
  // Shards deleted since (or never written) and keys no shard can have.
  writeFileSync(file, JSON.stringify({ format: 1, shards: ['space/gone/c', 'space/gone/n/1', '../../etc/passwd', 'a\u0000b', 42] }));
  const served = await serve({ dataDir: dir, port: 0, prewarm: true });
  try {
    expect(served.prewarmed?.recorded).toBe(4);
    expect(storeOf(served).loaded('space/gone/c')).toBe(true); // known absent
    expect((await fetch(`${served.url}/v1/user`, { headers: auth })).status).toBe(200);
  } finally {
    await served.close();
  }
  expect(readRecord(dir)).not.toContain('space/gone/c'); // the close wrote what it held
}, 60_000);

test('the prewarm keeps to its budget', async () => {
  const { dir, auth, space } = await dataDirWithSpace('Budget');
  const a = await serve({ dataDir: dir, port: 0, prewarm: true });
  await addPages(a.url, auth, space, 40);
  await (await fetch(`${a.url}/v1/spaces/${space}/content`, { headers: auth })).text();
  await a.close();
  expect(readRecord(dir).length).toBeGreaterThan(8);
  const b = await serve({ dataDir: dir, port: 0 });
  try {
    const store = storeOf(b);
    expect(await prewarm(dir, store, { bytes: 10 ** 9, ms: 0 })).toMatchObject({ recorded: readRecord(dir).length, loaded: 0, bytes: 0 });
    const base = store.stats().bytes;
    expect((await prewarm(dir, store, { bytes: 1, ms: 1000 })).loaded).toBeLessThanOrEqual(8); // one batch, then the budget is spent
    expect(store.stats().bytes).toBeGreaterThan(base);
  } finally {
    await b.close();
  }
}, 60_000);

test('a running server writes its record every so often, so that a server killed leaves one', async () => {
  const { dir, auth, space } = await dataDirWithSpace('Recorded while running');
  const served = await serve({ dataDir: dir, port: 0, prewarm: { bytes: PREWARM_BYTES, ms: 10_000, recordEveryMs: 50 } });
  try {
    expect((await fetch(`${served.url}/v1/spaces/${space}/content`, { headers: auth })).status).toBe(200);
    // Not closed: the record comes from the running server.
    await expect.poll(() => readRecord(dir), { timeout: 10_000 }).toContain(`space/${space}/rev`);
  } finally {
    await served.close();
  }
}, 60_000);

test('a record is not written again while the cache holds the same shards in the same order', async () => {
  const { dir, auth, space } = await dataDirWithSpace('Unchanged record');
  const file = join(dir, PREWARM_FILE);
  const served = await serve({ dataDir: dir, port: 0 });
  expect((await fetch(`${served.url}/v1/spaces/${space}/content`, { headers: auth })).status).toBe(200);
  // Closed: no worker touches the cache any more, so its order holds between the two records.
  await served.close();
  const store = storeOf(served);
  const text = await recordCache(dir, store);
  expect(readRecord(dir)).toContain(`space/${space}/rev`);
  rmSync(file);
  expect(await recordCache(dir, store, text)).toBe(text);
  expect(existsSync(file)).toBe(false); // the same text: nothing written
  await recordCache(dir, store, 'another');
  expect(existsSync(file)).toBe(true);
}, 60_000);

test('a backup leaves the prewarm record out (a hint of the server that wrote it, not data)', async () => {
  const { dir } = await dataDirWithSpace('Backed up');
  writeFileSync(join(dir, PREWARM_FILE), JSON.stringify({ format: 1, shards: ['root'] }));
  writeFileSync(join(dir, `${PREWARM_FILE}.tmp`), '{');
  const out = join(dir, '..', `prewarm-backup-${process.pid}.tar.gz`);
  await backupHeld(dir, out);
  const entries: string[] = [];
  await tar.t({ file: out, onReadEntry: (e) => void entries.push(e.path) });
  rmSync(out);
  expect(entries.some((e) => e.startsWith('store/'))).toBe(true);
  expect(entries.filter((e) => e.includes('prewarm'))).toEqual([]);
}, 60_000);
