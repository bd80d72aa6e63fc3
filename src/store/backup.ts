import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { DocsError } from '../kernel/errors.js';
import { FileBackend } from './file-backend.js';
import { LOCK_FILE } from './lock.js';
import { QUARANTINE, SHARDS } from './shard-files.js';
import { storageError } from './storage-error.js';

// `docs backup` / `docs restore`: a data directory as a .tar.gz (the `tar` package).
//
// A backup is a snapshot at a commit boundary: the file backend hard-links every file of the
// directory into a folder beside them between two commits (src/store/file-backend.ts
// `snapshot`): a link per file, so commits wait only that long, and since commits replace files
// by rename, never in place, the linked files keep the snapshot's contents while the store goes
// on. The archive is then written from that folder, and the folder removed. While a server
// holds the directory, the snapshot is taken by that server (POST /_docs/backup with its
// session token), so it sees every write it acknowledged before the request; otherwise the
// command holds the directory itself. Search indexes are left out: they are derived, and rebuilt
// when missing. The lock, temp files and quarantine are left out too.

export const SNAPSHOT_PREFIX = '.snapshot-';
const SKIP = new Set([LOCK_FILE, 'search', QUARANTINE]);
const skip = (rel: string) => SKIP.has(rel) || basename(rel).startsWith(SNAPSHOT_PREFIX) || rel.startsWith(`${LOCK_FILE}.`);

/** A .tar.gz stream of a snapshot of the store under `backend` (a data directory). */
export async function backupStream(backend: FileBackend): Promise<{ stream: Readable; files: number }> {
  const snap = join(backend.dir, `${SNAPSHOT_PREFIX}${randomBytes(6).toString('hex')}`);
  let files: number;
  try {
    files = await backend.snapshot(snap, skip);
  } catch (err) {
    await rm(snap, { recursive: true, force: true });
    throw storageError(err, backend.dir);
  }
  const tar = await import('tar');
  const stream = tar.create({ gzip: true, cwd: snap, portable: true }, await readdir(snap));
  const cleanup = () => void rm(snap, { recursive: true, force: true });
  stream.once('end', cleanup);
  stream.once('error', cleanup);
  stream.once('close', cleanup);
  return { stream: stream as unknown as Readable, files };
}

/** Writes `stream` to `out` through a temp file renamed at the end: no half-written archive. */
export async function writeArchive(stream: Readable | ReadableStream, out: string): Promise<number> {
  const { createWriteStream } = await import('node:fs');
  const { pipeline } = await import('node:stream/promises');
  const { Readable: R } = await import('node:stream');
  const tmp = `${out}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const source = 'getReader' in stream ? R.fromWeb(stream as any) : stream;
    await pipeline(source, createWriteStream(tmp, { mode: 0o600 }));
    await rename(tmp, out);
  } catch (err) {
    await rm(tmp, { force: true });
    throw storageError(err, dirname(resolve(out)));
  }
  return (await stat(out)).size;
}

/** Folders 0700 and files 0600 under `dir` (what the store creates; an archive may say otherwise). */
async function ownerOnly(dir: string): Promise<void> {
  await chmod(dir, 0o700);
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await ownerOnly(p);
    else await chmod(p, 0o600);
  }
}

/** `docs restore`: unpacks `archive` into `dir` (absent or empty), checks it, or leaves nothing. */
export async function restoreArchive(archive: string, dir: string): Promise<{ shards: number; rows: number; blobs: number }> {
  if (!existsSync(archive)) throw new DocsError('not_found', `no archive at ${archive}`);
  if (existsSync(dir) && (await readdir(dir)).length) throw new DocsError('conflict', `${dir} is not empty: restore into a new directory`);
  const target = resolve(dir);
  const tmp = `${target}.restore-${randomBytes(4).toString('hex')}`;
  await mkdir(tmp, { recursive: true, mode: 0o700 });
  try {
    const tar = await import('tar');
    // Only regular files and folders; tar already refuses absolute paths and `..`.
    await tar.extract({ file: archive, cwd: tmp, strict: true, filter: (_p, entry: any) => entry.type === 'File' || entry.type === 'Directory' }).catch((err: any) => {
      throw new DocsError('invalid', `${archive} is not a readable .tar.gz: ${err.message}`);
    });
    if (!existsSync(join(tmp, SHARDS))) throw new DocsError('invalid', `${archive} is not a docs backup (it has no ${SHARDS}/ folder)`);
    await ownerOnly(tmp); // whatever modes the archive carries, the data directory is the owner's alone
    const { doctor } = await import('./doctor.js');
    const report = await doctor(tmp);
    if (report.damaged.length) {
      const d = report.damaged[0]!;
      throw new DocsError('invalid', `${archive} holds a damaged store: ${d.file} ${d.problem}${report.damaged.length > 1 ? ` (and ${report.damaged.length - 1} more)` : ''}`);
    }
    if (existsSync(target)) await rm(target, { recursive: true }); // empty, checked above
    await rename(tmp, target);
    return { shards: report.shards, rows: report.rows, blobs: report.blobs };
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw storageError(err, target);
  }
}

/** A backup taken by this process, holding the directory (no server runs on it). */
export async function backupHeld(dir: string, out: string): Promise<{ files: number; bytes: number }> {
  if (!existsSync(join(dir, SHARDS))) throw new DocsError('not_found', `no store in ${dir} (it has no ${SHARDS}/ folder)`);
  const backend = new FileBackend(dir);
  await backend.open(); // completes an interrupted commit; stops on damage (docs doctor says what)
  const { stream, files } = await backupStream(backend);
  const bytes = await writeArchive(stream, out);
  await backend.close();
  return { files, bytes };
}
