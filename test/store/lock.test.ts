import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCK_FILE, liveHolder, tryLock } from '../../src/store/lock.js';
import { tempDir } from '../helpers/server.js';

describe('data directory lock', () => {
  it('is refused while a live process holds it, and says who', async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    try {
      writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: child.pid, url: 'http://127.0.0.1:1', startedAt: '' }));
      const got = tryLock(dir);
      expect(got.ok).toBe(false);
      if (!got.ok) expect(got.holder).toMatchObject({ pid: child.pid, url: 'http://127.0.0.1:1' });
      expect(liveHolder(dir)?.pid).toBe(child.pid);
    } finally {
      child.kill();
    }
  });

  it('takes over the stale lock of a dead process', () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: dead, url: 'http://127.0.0.1:1', startedAt: '' }));
    expect(liveHolder(dir)).toBeUndefined();
    const got = tryLock(dir, { url: 'http://127.0.0.1:2' });
    expect(got.ok).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, url: 'http://127.0.0.1:2' });
    if (got.ok) got.release();
  });

  it('keeps the session token readable by its owner only', () => {
    const dir = tempDir();
    const got = tryLock(dir, { token: 'secret' });
    expect(statSync(join(dir, LOCK_FILE)).mode & 0o077).toBe(0);
    if (got.ok) {
      got.update({ url: 'http://x' });
      expect(statSync(join(dir, LOCK_FILE)).mode & 0o077).toBe(0);
      got.release();
    }
  });
});
