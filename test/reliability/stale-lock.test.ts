import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE, processIdentity } from '../../src/store/lock.js';
import { BIN, spawnServe } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

// A lock.json left by a crashed process whose pid now belongs to an unrelated process is stale
// (the lock records the process's identity: Linux boot id + start time), and so is a server lock
// whose URL does not answer as that `docs serve` with the lock's session token. A lock of a live
// `docs serve` still refuses a second server, both ways.

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

/** An unrelated live process, whose pid a forged lock names. */
function unrelated(): number {
  const c = spawn('sleep', ['30'], { stdio: 'ignore' });
  children.push(c);
  return c.pid!;
}

/** The built CLI, asynchronously (the test's own HTTP server keeps answering meanwhile). */
function cli(args: string[], dir: string): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DOCS_DATA: dir, DOCS_BOOTSTRAP_TOKEN: 'gb_api_stale_lock_owner' };
    for (const k of ['DOCS_API_URL', 'DOCS_TOKEN']) delete env[k];
    const c = spawn(process.execPath, [BIN, ...args], { env });
    let out = '';
    let err = '';
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => c.kill('SIGKILL'), 30_000);
    c.on('exit', (status) => (clearTimeout(timer), resolve({ status, out, err })));
  });
}

const forge = (dir: string, lock: object) =>
  writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ startedAt: new Date(Date.now() - 60_000).toISOString(), ...lock }), { mode: 0o600 });
const lockOf = (dir: string) => JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'));

describe('stale locks', () => {
  it.runIf(process.platform === 'linux')(
    'records who the process is, and takes over a lock whose pid is now an unrelated process',
    async () => {
      const dir = tempDir();
      // The identity read for a live process is stable, and differs between processes.
      const pid = unrelated();
      expect(processIdentity(pid)).toMatch(/^linux:[0-9a-f-]+:\d+$/);
      expect(processIdentity(pid)).toBe(processIdentity(pid));
      expect(processIdentity(pid)).not.toBe(processIdentity(process.pid));
      // An in-process command's lock (no URL) left by a crashed docs whose pid `sleep` now has.
      const crashed = processIdentity(process.pid)!.replace(/:\d+$/, ':1');
      forge(dir, { pid, process: crashed });
      const r = await cli(['orgs', 'list', '--json'], dir);
      expect(r.status, r.err).toBe(0);
      expect(JSON.parse(r.out).items).toHaveLength(1);
      // A server takes it over as well, and records its own identity.
      forge(dir, { pid, process: crashed, url: 'http://127.0.0.1:1', token: 'gone' });
      const served = await spawnServe(['--data', dir]);
      children.push(served.child);
      const held = lockOf(dir);
      expect(held).toMatchObject({ pid: served.child.pid, url: served.url, process: processIdentity(served.child.pid!) });
      served.child.kill('SIGTERM');
      await served.exited;
    },
    60_000,
  );

  it('takes over a server lock whose URL does not answer as that docs serve', async () => {
    const dir = tempDir();
    const pid = unrelated();
    // Closed port: nothing answers. No `process` field, as locks of earlier versions (and of
    // platforms without a process identity) have.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    forge(dir, { pid, url: `http://127.0.0.1:${closedPort}`, token: 'session-of-a-dead-server' });
    const r1 = await cli(['orgs', 'list', '--json'], dir);
    expect(r1.status, r1.err).toBe(0);
    // Something else answers at the URL (200 for anything), but not as docs with that token.
    const other = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    try {
      forge(dir, { pid, url: `http://127.0.0.1:${(other.address() as AddressInfo).port}`, token: 'session-of-a-dead-server' });
      const served = await spawnServe(['--data', dir]);
      children.push(served.child);
      expect(lockOf(dir)).toMatchObject({ pid: served.child.pid, url: served.url });
      served.child.kill('SIGTERM');
      await served.exited;
    } finally {
      other.close();
    }
  }, 60_000);

  it('still refuses a second server while a live docs serve holds the directory, even without a process identity', async () => {
    const dir = tempDir();
    const first = await spawnServe(['--data', dir]);
    children.push(first.child);
    const second = await cli(['serve', '--port', '0', '--data', dir], dir);
    expect(second.status).not.toBe(0);
    expect(second.err).toContain(`held by docs serve at ${first.url}`);
    // As a lock from a platform without process identity: the URL answers with the session token.
    const { process: _identity, ...withoutIdentity } = lockOf(dir);
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(withoutIdentity), { mode: 0o600 });
    const third = await cli(['serve', '--port', '0', '--data', dir], dir);
    expect(third.status).not.toBe(0);
    expect(third.err).toContain(`held by docs serve at ${first.url}`);
    // In-process commands are still sent to it.
    const listed = await cli(['orgs', 'list', '--json'], dir);
    expect(listed.status, listed.err).toBe(0);
    expect(lockOf(dir).pid).toBe(first.child.pid);
    first.child.kill('SIGTERM');
    await first.exited;
  }, 60_000);
});
