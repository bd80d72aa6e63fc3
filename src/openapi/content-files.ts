import { contextBase } from '../kernel/context.js';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context } from '../kernel/context.js';
import { openapiFile, openapiRawFile } from '../store/blob-refs.js';
import { stageFile, syncDir } from '../store/durable-file.js';

// The parsed documents of a version (`content.filesystem`) can be megabytes: they are kept as
// one file per version under `<data>/openapi/<specId>/<versionId>.json`, read only when asked
// for, instead of in a store shard that every process would load at start. A file is written
// (durably) before the version row that names it is committed, so a committed version always
// has its file; a crash in between leaves an unreferenced file, which deleting the spec removes.
// Without a data directory (tests, in-memory servers) the files live in memory.

const memory = new WeakMap<Context, Map<string, string>>();
const mem = (ctx: Context) => {
  let m = memory.get(contextBase(ctx));
  if (!m) memory.set(contextBase(ctx), (m = new Map()));
  return m;
};

const specDir = (dataDir: string, specId: string) => join(dataDir, 'openapi', specId);

export async function writeContent(ctx: Context, specId: string, versionId: string, json: string, raw?: string): Promise<void> {
  if (!ctx.dataDir) {
    mem(ctx).set(`${specId}/${versionId}`, json);
    if (raw !== undefined) mem(ctx).set(`${specId}/${versionId}.raw`, raw);
    return;
  }
  const dir = specDir(ctx.dataDir, specId);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(ctx.dataDir, openapiFile(specId, versionId));
  await rename(await stageFile(file, json), file);
  if (raw !== undefined) {
    const rawFile = join(ctx.dataDir, openapiRawFile(specId, versionId));
    await rename(await stageFile(rawFile, raw), rawFile);
  }
  await syncDir(dir);
}

/** The stored `filesystem` JSON text of a version (with `raw`: its entrypoint's text as submitted), or undefined when it is missing. */
export async function readContent(ctx: Context, specId: string, versionId: string, raw = false): Promise<string | undefined> {
  if (!ctx.dataDir) return mem(ctx).get(`${specId}/${versionId}${raw ? '.raw' : ''}`);
  try {
    return await readFile(join(ctx.dataDir, (raw ? openapiRawFile : openapiFile)(specId, versionId)), 'utf8');
  } catch (err: any) {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Removes one version's file (a result that lost a race) or, without versionId, a spec's files. */
export async function removeContent(ctx: Context, specId: string, versionId?: string): Promise<void> {
  if (!ctx.dataDir) {
    for (const k of [...mem(ctx).keys()])
      if (versionId ? k === `${specId}/${versionId}` || k === `${specId}/${versionId}.raw` : k.startsWith(`${specId}/`)) mem(ctx).delete(k);
    return;
  }
  const dir = specDir(ctx.dataDir, specId);
  if (!versionId) return rm(dir, { recursive: true, force: true });
  await rm(join(dir, `${versionId}.json`), { force: true });
  await rm(join(dir, `${versionId}.raw`), { force: true });
}
