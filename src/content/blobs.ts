import { contextBase } from '../kernel/context.js';
import { mkdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context } from '../kernel/context.js';
import { blobFile } from '../store/blob-refs.js';
import { stageFile, syncDir } from '../store/durable-file.js';

// File bytes are blobs named by their SHA-256 under `<data>/files/`, written durably before the
// revision that names them is committed. Content addressing makes duplicated spaces and later
// revisions share bytes for free. Without a data directory (in-memory servers) they stay in memory.

const memory = new WeakMap<Context, Map<string, Buffer>>();
const mem = (ctx: Context) => {
  let m = memory.get(contextBase(ctx));
  if (!m) memory.set(contextBase(ctx), (m = new Map()));
  return m;
};

const blobPath = (dataDir: string, sha: string) => join(dataDir, blobFile(sha));

export async function writeBlob(ctx: Context, sha: string, bytes: Buffer): Promise<void> {
  if (!ctx.dataDir) return void mem(ctx).set(sha, bytes);
  const file = blobPath(ctx.dataDir, sha);
  try {
    if ((await stat(file)).size === bytes.length) return;
  } catch {}
  await mkdir(join(file, '..'), { recursive: true, mode: 0o700 }); // the data directory is the owner's alone
  await rename(await stageFile(file, bytes as any), file);
  await syncDir(join(file, '..'));
}

export async function readBlob(ctx: Context, sha: string): Promise<Buffer | undefined> {
  if (!ctx.dataDir) return mem(ctx).get(sha);
  try {
    return await readFile(blobPath(ctx.dataDir, sha));
  } catch (err: any) {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Width and height of PNG, GIF and JPEG images, read from their headers. */
export function imageDimensions(b: Buffer): { width: number; height: number } | undefined {
  if (b.length > 24 && b.readUInt32BE(0) === 0x89504e47) return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b.length > 10 && b.toString('ascii', 0, 3) === 'GIF') return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  if (b.length > 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return undefined;
      const marker = b[i + 1]!;
      const len = b.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
      i += 2 + len;
    }
  }
  return undefined;
}
