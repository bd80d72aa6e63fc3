import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { DocsError } from '../kernel/errors.js';
import { FileBackend } from './file-backend.js';
import { LOCK_FILE } from './lock.js';
import { CHECKSUMS, PREWARM_FILE, QUARANTINE, SHARDS } from './shard-files.js';
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
// when missing. The lock, temp files, quarantine and the prewarm record (a hint) are left out too.

export const SNAPSHOT_PREFIX = '.snapshot-';
const SKIP = new Set([LOCK_FILE, 'search', QUARANTINE, PREWARM_FILE]);
const skip = (rel: string) =>
  SKIP.has(rel) || basename(rel).startsWith(SNAPSHOT_PREFIX) || rel.startsWith(`${LOCK_FILE}.`) || rel.startsWith(`${PREWARM_FILE}.`);

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

/**
 * Every entry of the archive, checked before one byte is written: only regular files and
 * folders, each at a relative path of plain segments (no `..`, `.`, empty or absolute), each
 * path once, never a file where the archive also puts something under it. A link of any kind is
 * refused (a symbolic link followed by an entry through it was how an archive could write
 * outside the folder, or fail half way): the error names the entry (exit 2).
 */
async function checkEntries(archive: string): Promise<void> {
  const tar = await import('tar');
  const seen = new Map<string, 'File' | 'Directory'>();
  const parents = new Set<string>(); // every folder some entry is under
  let problem: string | undefined;
  const refuse = (entry: string, why: string) => {
    problem ??= `${archive}: entry ${JSON.stringify(entry.slice(0, 200))} ${why}; nothing was restored`;
  };
  await tar
    .list({
      file: archive,
      strict: true,
      onReadEntry: (entry: any) => {
        const raw = String(entry.path);
        const type = entry.type as string;
        if (type !== 'File' && type !== 'Directory' && type !== 'OldFile' && type !== 'ContiguousFile') {
          refuse(raw, `is a ${type === 'SymbolicLink' ? 'symbolic link' : type === 'Link' ? 'hard link' : type} (a docs backup holds only files and folders)`);
          return;
        }
        const path = raw.replace(/\/+$/, '');
        const segs = path.split('/');
        if (!path || raw.startsWith('/') || /^[A-Za-z]:/.test(raw) || raw.includes('\\') || segs.some((s) => s === '' || s === '.' || s === '..')) {
          refuse(raw, 'is not a relative path of plain names (absolute, `..`, `.` or empty segments)');
          return;
        }
        const kind = type === 'Directory' ? 'Directory' : 'File';
        if (seen.has(path)) {
          refuse(raw, 'appears twice in the archive');
          return;
        }
        for (let i = 1; i < segs.length; i++) {
          const parent = segs.slice(0, i).join('/');
          if (seen.get(parent) === 'File') return refuse(raw, `is under ${parent}, which the archive holds as a file`);
        }
        if (kind === 'File' && parents.has(path)) return refuse(raw, 'is a file where the archive also holds entries under it');
        for (let i = 1; i < segs.length; i++) parents.add(segs.slice(0, i).join('/'));
        seen.set(path, kind);
      },
    })
    .catch((err: any) => {
      throw new DocsError('invalid', `${archive} is not a readable .tar.gz: ${err.message}`);
    });
  if (problem) throw new DocsError('invalid', problem);
}

/**
 * `docs restore`: unpacks `archive` into `dir` (absent or empty), or leaves nothing. Every entry
 * is checked first (checkEntries), it is unpacked into a folder beside `dir`, which must then
 * hold a complete store that `docs doctor` accepts (its root shard, its catalog), and only then
 * is renamed into place. Whatever fails, the folder is removed.
 */
export async function restoreArchive(archive: string, dir: string): Promise<{ shards: number; rows: number; blobs: number }> {
  if (!existsSync(archive)) throw new DocsError('not_found', `no archive at ${archive}`);
  if (existsSync(dir) && (await readdir(dir)).length) throw new DocsError('conflict', `${dir} is not empty: restore into a new directory`);
  await checkEntries(archive);
  const target = resolve(dir);
  const tmp = `${target}.restore-${randomBytes(4).toString('hex')}`;
  await mkdir(tmp, { recursive: true, mode: 0o700 });
  try {
    const tar = await import('tar');
    // Checked above: only files and folders, at plain relative paths, each once.
    await tar
      .extract({
        file: archive,
        cwd: tmp,
        strict: true,
        preservePaths: false,
        filter: (_p, entry: any) => entry.type === 'File' || entry.type === 'Directory' || entry.type === 'OldFile' || entry.type === 'ContiguousFile',
      })
      .catch((err: any) => {
        throw new DocsError('invalid', `${archive} is not a readable .tar.gz: ${err.message}`);
      });
    await ownerOnly(tmp); // whatever modes the archive carries, the data directory is the owner's alone
    const { readFormat } = await import('./data-format.js');
    const format = (() => {
      try {
        return readFormat(tmp);
      } catch (err: any) {
        throw new DocsError('invalid', `${archive} is not a docs backup: ${String(err.message).replace(`data directory ${tmp}: `, '')}`);
      }
    })();
    if (format.kind === 'empty') throw new DocsError('invalid', `${archive} is not a docs backup (it holds no store: no ${SHARDS}/ folder)`);
    const folder = format.kind === 'older' ? 'shards' : SHARDS;
    // A complete store: its catalog, the catalog shard and the root shard (owner, users, secrets).
    // Without them a start would make a new, empty store with a new owner.
    const missing = [
      [CHECKSUMS, `${CHECKSUMS}/`],
      [join(folder, 'catalog.json'), `${folder}/catalog.json`],
      [join(folder, 'root.json'), `${folder}/root.json`],
    ].filter(([p]) => !existsSync(join(tmp, p!)));
    if (missing.length)
      throw new DocsError('invalid', `${archive} does not hold a complete docs store: ${missing.map(([, n]) => n).join(', ')} missing; nothing was restored`);
    const { doctor } = await import('./doctor.js');
    const report = await doctor(tmp);
    if (report.damaged.length) {
      const d = report.damaged[0]!;
      throw new DocsError(
        'invalid',
        `${archive} holds a damaged store: ${d.file} ${d.problem}${report.damaged.length > 1 ? ` (and ${report.damaged.length - 1} more)` : ''}`,
      );
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
  if (!existsSync(join(dir, SHARDS)) && !existsSync(join(dir, 'shards'))) throw new DocsError('not_found', `no store in ${dir} (it has no ${SHARDS}/ folder)`);
  const backend = new FileBackend(dir);
  await backend.open(); // completes an interrupted commit; stops on damage (docs doctor says what)
  const { stream, files } = await backupStream(backend);
  const bytes = await writeArchive(stream, out);
  await backend.close();
  return { files, bytes };
}
