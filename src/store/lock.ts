import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { storageError } from './storage-error.js';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Who holds a data directory. Only one process writes a data directory: `docs serve` holds it
 * for its lifetime (with its URL and a local token so that CLI calls can be sent to it), and an
 * in-process CLI command holds it for the length of one command (no URL).
 */
export interface LockInfo {
  pid: number;
  url?: string;
  /** A session token valid only while that server runs; the file is readable by its owner only. */
  token?: string;
  startedAt: string;
}

export const LOCK_FILE = 'lock.json';

/** Removes `path` if it is an empty file (ours: `wx` created it, the write failed). */
function rmEmpty(path: string) {
  try {
    if (statSync(path).size === 0) unlinkSync(path);
  } catch {}
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err: any) {
    return err.code === 'EPERM';
  }
}

export function readLock(dir: string): LockInfo | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as LockInfo;
  } catch {
    return undefined;
  }
}

/** The live holder of the directory, if any (a stale lock of a dead process counts as none). */
export function liveHolder(dir: string): LockInfo | undefined {
  const info = readLock(dir);
  return info && info.pid !== process.pid && alive(info.pid) ? info : undefined;
}

export type Acquired = { ok: true; release: () => void; update: (info: Partial<LockInfo>) => void } | { ok: false; holder: LockInfo };

/** Tries once to take the lock; a lock left by a dead process is taken over. */
export function tryLock(dir: string, info: Omit<LockInfo, 'pid' | 'startedAt'> = {}): Acquired {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 }); // the data directory is the owner's alone
  } catch (err) {
    throw storageError(err, dir);
  }
  const path = join(dir, LOCK_FILE);
  const mine: LockInfo = { pid: process.pid, startedAt: new Date().toISOString(), ...info };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      writeFileSync(path, JSON.stringify(mine), { flag: 'wx', mode: 0o600 });
      let current = mine;
      return {
        ok: true,
        update: (more) => {
          current = { ...current, ...more };
          // Replace atomically: readers never see a half-written lock.
          const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
          try {
            writeFileSync(tmp, JSON.stringify(current), { mode: 0o600 });
            renameSync(tmp, path);
          } catch (err) {
            try {
              unlinkSync(tmp);
            } catch {}
            throw storageError(err, dir);
          }
        },
        release: () => {
          const now = readLock(dir);
          if (now?.pid === process.pid) unlinkSync(path);
        },
      };
    } catch (err: any) {
      if (err.code !== 'EEXIST') {
        // Created but not written (a full disk): an empty lock would block the next command.
        rmEmpty(path);
        throw storageError(err, dir);
      }
    }
    const holder = readLock(dir);
    if (holder && alive(holder.pid) && holder.pid !== process.pid) return { ok: false, holder };
    // Stale (or unreadable, half-written by a crashed process): move it aside under a unique
    // name (only one contender's rename succeeds), check it is the one we judged stale, retry.
    const aside = `${path}.${randomBytes(4).toString('hex')}.stale`;
    try {
      renameSync(path, aside);
      const moved = JSON.parse(readFileSync(aside, 'utf8').trim() || 'null') as LockInfo | null;
      if (moved && alive(moved.pid) && moved.pid !== process.pid) renameSync(aside, path);
      else unlinkSync(aside);
    } catch {
      /* another contender moved it first, or it was unreadable: retry */
      try {
        unlinkSync(aside);
      } catch {}
    }
  }
  const holder = readLock(dir);
  return { ok: false, holder: holder ?? { pid: -1, startedAt: '' } };
}
