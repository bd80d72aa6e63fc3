import { open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import type { Adapter } from 'lowdb';

/** How a file is opened for writing (tests inject a full disk through it). */
export type OpenFile = (path: string, flags: string, mode: number) => Promise<FileHandle>;

/** fsync a directory so that a rename or unlink in it survives a crash. */
export async function syncDir(dir: string): Promise<void> {
  const fd = await open(dir, 'r');
  try {
    await fd.sync();
  } finally {
    await fd.close();
  }
}

/**
 * Writes `text` (or bytes) to a new uniquely named temp file beside `file` and fsyncs it (unless `sync` is
 * false: a commit of the file backend makes its files durable through its journal).
 */
export async function stageFile(file: string, text: string | Uint8Array, openFile: OpenFile = open, sync = true): Promise<string> {
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = await openFile(tmp, 'wx', 0o600);
  try {
    await fd.writeFile(text);
    if (sync) await fd.sync();
  } catch (err) {
    // A temp file cut short (a full disk) holds space nobody will free until a restart: gone now.
    await fd.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw err;
  }
  await fd.close();
  return tmp;
}

/**
 * A lowdb adapter that is durable, unlike lowdb's JSONFile (steno renames without fsync, so a
 * power loss can leave an empty file): temp file with a unique name, fsync, rename, fsync dir.
 * `stage` exposes the first half so a multi-file commit can rename all files under one manifest.
 */
export class DurableJSONFile<T> implements Adapter<T> {
  constructor(readonly file: string) {}

  async read(): Promise<T | null> {
    try {
      return JSON.parse(await readFile(this.file, 'utf8')) as T;
    } catch (err: any) {
      if (err.code === 'ENOENT') return null;
      throw err;
    }
  }

  stage(data: T): Promise<string> {
    return stageFile(this.file, JSON.stringify(data));
  }

  async write(data: T): Promise<void> {
    const tmp = await this.stage(data);
    await rename(tmp, this.file);
    await syncDir(dirname(this.file));
  }

  async remove(): Promise<void> {
    await unlink(this.file).catch((err) => {
      if (err.code !== 'ENOENT') throw err;
    });
    await syncDir(dirname(this.file));
  }
}
