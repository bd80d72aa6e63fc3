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
  /**
   * Who that pid was when the lock was written (Linux: boot id and the process start time of
   * /proc/<pid>/stat), so a pid reused by another process after a crash is known for what it is.
   * Absent where the platform offers no cheap equivalent, and in locks of older versions.
   */
  process?: string;
}

export const LOCK_FILE = 'lock.json';

/** Removes `path` if it is an empty file (ours: `wx` created it, the write failed). */
function rmEmpty(path: string) {
  try {
    if (statSync(path).size === 0) unlinkSync(path);
  } catch {}
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err: any) {
    return err.code === 'EPERM';
  }
}

let bootId: string | null | undefined;

/**
 * An identity of the process running as `pid` now, stable for its lifetime and different for
 * any later process given the same pid: on Linux the boot id and field 22 of /proc/<pid>/stat
 * (start time in clock ticks since boot). Undefined elsewhere or when unreadable: then only the
 * pid and the server probe (`holderAnswers`) can tell.
 */
export function processIdentity(pid: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    bootId ??= readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[22 - 3];
    return start && /^\d+$/.test(start) ? `linux:${bootId}:${start}` : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the holder's process still runs: its pid is alive and, where known, is still the same process. */
function alive(holder: LockInfo): boolean {
  if (!pidAlive(holder.pid)) return false;
  if (!holder.process) return true;
  const now = processIdentity(holder.pid);
  return now === undefined || now === holder.process;
}

/** The holder is known to be the very process that wrote the lock (not only a live pid). */
const confirmed = (holder: LockInfo) => !!holder.process && processIdentity(holder.pid) === holder.process;

/** Same lock (not a newer one written since it was judged). */
const sameLock = (a: LockInfo, b: LockInfo) => a.pid === b.pid && a.startedAt === b.startedAt && a.token === b.token && a.url === b.url;

/** How long a holder's URL gets to answer before it is judged not to be a `docs serve`. */
export const PROBE_TIMEOUT_MS = 1500;

/**
 * Whether the lock's URL answers as the `docs serve` that wrote it: `GET /v1/user` with the
 * lock's session token is a 200 user (a session token is valid only in the process that made it).
 * Refused, timed out, or any other answer: not that server.
 */
export async function holderAnswers(holder: LockInfo, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  if (!holder.url || !holder.token) return false;
  try {
    const res = await fetch(new URL('/v1/user', holder.url), {
      headers: { authorization: `Bearer ${holder.token}` },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    const body = res.status === 200 ? ((await res.json()) as any) : undefined;
    return body?.object === 'user';
  } catch {
    return false;
  }
}

/**
 * Whether a live-looking holder must be proven by its URL: a server lock (it has a URL) whose
 * process identity cannot be confirmed (another platform, a lock of an older version, a pid
 * reused where the identity is unreadable). A confirmed process is the holder even while its
 * listener is closed (shutting down): it may still be writing.
 */
const needsProbe = (holder: LockInfo) => !!holder.url && !confirmed(holder);

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
  return info && info.pid !== process.pid && alive(info) ? info : undefined;
}

/** `liveHolder`, and a server lock's URL answers as that server when its process cannot be confirmed otherwise. */
export async function liveHolderProbed(dir: string): Promise<LockInfo | undefined> {
  const info = liveHolder(dir);
  if (!info || !needsProbe(info)) return info;
  return (await holderAnswers(info)) ? info : undefined;
}

/** `tryLock`, taking over a server lock whose URL does not answer as that server (see `needsProbe`). */
export async function tryLockProbed(dir: string, info: Omit<LockInfo, 'pid' | 'startedAt' | 'process'> = {}): Promise<Acquired> {
  const got = tryLock(dir, info);
  if (got.ok || !needsProbe(got.holder) || (await holderAnswers(got.holder))) return got;
  return tryLock(dir, info, got.holder);
}

export type Acquired = { ok: true; release: () => void; update: (info: Partial<LockInfo>) => void } | { ok: false; holder: LockInfo };

/**
 * Tries once to take the lock; a lock left by a dead process (or by a process whose pid is now
 * another process's) is taken over, as is `stale`, a lock found not to answer as its server.
 */
export function tryLock(dir: string, info: Omit<LockInfo, 'pid' | 'startedAt' | 'process'> = {}, stale?: LockInfo): Acquired {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 }); // the data directory is the owner's alone
  } catch (err) {
    throw storageError(err, dir);
  }
  const path = join(dir, LOCK_FILE);
  const identity = processIdentity(process.pid);
  const mine: LockInfo = { pid: process.pid, startedAt: new Date().toISOString(), ...(identity ? { process: identity } : {}), ...info };
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
    const held = (h: LockInfo) => alive(h) && h.pid !== process.pid && !(stale && sameLock(h, stale));
    if (holder && held(holder)) return { ok: false, holder };
    // Stale (or unreadable, half-written by a crashed process): move it aside under a unique
    // name (only one contender's rename succeeds), check it is the one we judged stale, retry.
    const aside = `${path}.${randomBytes(4).toString('hex')}.stale`;
    try {
      renameSync(path, aside);
      const moved = JSON.parse(readFileSync(aside, 'utf8').trim() || 'null') as LockInfo | null;
      if (moved && held(moved)) renameSync(aside, path);
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
