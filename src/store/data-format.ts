import { readFileSync, statSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { DocsError } from '../kernel/errors.js';
import { packageRoot } from '../kernel/root.js';
import { stageFile, syncDir } from './durable-file.js';

// The format of a data directory, and the marker that records it.
//
//   format 1   shards/ a folder of shard files, no catalog (every shard read at start)
//   format 2   shards/ a folder of shard files, checksums/ the catalog (shards loaded on demand)
//   format 3   store/ the folder of shard files; `shards` a FILE: this marker
//
// Why the marker sits where the shard folder was: every docs before format 3 starts by creating
// `<data>/shards/` (mkdir) and reading it, so a file there stops it (EEXIST/ENOTDIR, exit 1)
// before it reads or writes anything, instead of taking a newer directory for an empty one (0
// pages) and writing into it. A docs of format 3 or later reads the marker: a format newer than
// its own stops it (exit 1, naming both formats and the docs that wrote it), before any write.
// An older directory is migrated at its first open (src/store/file-backend.ts), in two renames:
// `shards/` -> `store/`, then the marker (written and fsynced beforehand) -> `shards`. A crash
// between the two leaves `store/` without a marker: the next open writes the marker.

export const FORMAT = 3;
/** The marker file (since format 3), where formats 1 and 2 kept their shard folder. */
export const MARKER = 'shards';
/** The folder of shard files since format 3. */
export const STORE_DIR = 'store';
/** The folder of shard files of formats 1 and 2. */
export const OLD_SHARD_DIR = 'shards';
export const MARKER_TMP_PREFIX = '.format-';

export type DirFormat =
  /** No store here yet (a new directory). */
  | { kind: 'empty' }
  /** Format 3: shard files in store/. */
  | { kind: 'current'; writtenBy?: string }
  /** Format 1 or 2: shard files in shards/, migrated at the next open. */
  | { kind: 'older'; format: 1 | 2 }
  /** store/ without a marker: a migration or creation cut between its steps (the next open completes it). */
  | { kind: 'interrupted' };

export function docsVersion(): string {
  try {
    return String(JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version);
  } catch {
    return 'unknown';
  }
}

const kindAt = (path: string): 'file' | 'dir' | 'other' | undefined => {
  try {
    const st = statSync(path);
    return st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other';
  } catch (err: any) {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return undefined;
    throw err;
  }
};

const refuse = (dir: string, what: string) => new DocsError('unavailable', `data directory ${dir}: ${what}`);

/**
 * The format of the data directory `dir`, read without writing. Throws (exit 1, one line) for
 * what no open may touch: a format newer than this docs reads, a damaged marker, two formats
 * mixed (a shards/ folder and store/), or a marker without its store/.
 */
export function readFormat(dir: string): DirFormat {
  const marker = kindAt(join(dir, MARKER));
  const store = kindAt(join(dir, STORE_DIR));
  if (store && store !== 'dir') throw refuse(dir, `${STORE_DIR} is not a folder (it should hold the shard files)`);
  if (marker === 'dir') {
    if (store)
      throw refuse(
        dir,
        `two formats mixed: ${OLD_SHARD_DIR}/ holds shard files of format 1 or 2 and ${STORE_DIR}/ those of format ${FORMAT} (an older docs wrote into a directory already migrated?); move the one you do not want out of the directory, then docs doctor --data ${dir}`,
      );
    return { kind: 'older', format: kindAt(join(dir, 'checksums')) === 'dir' ? 2 : 1 };
  }
  if (marker === 'other') throw refuse(dir, `${MARKER} is neither the format marker (a file) nor a folder of shard files`);
  if (marker === undefined) return store ? { kind: 'interrupted' } : { kind: 'empty' };
  let m: any;
  try {
    m = JSON.parse(readFileSync(join(dir, MARKER), 'utf8'));
  } catch (err: any) {
    throw refuse(dir, `${MARKER} (the format marker) is damaged: ${err.message}`);
  }
  if (typeof m !== 'object' || m === null || !Number.isInteger(m.format) || m.format < FORMAT)
    throw refuse(dir, `${MARKER} (the format marker) is damaged: no format number of ${FORMAT} or more`);
  const by = typeof m.writtenBy === 'string' ? m.writtenBy.slice(0, 100) : undefined;
  if (m.format > FORMAT) {
    throw refuse(
      dir,
      `has format ${m.format}${by ? ` (written by ${by})` : ''}; this docs (${docsVersion()}) reads formats 1 to ${FORMAT}: use ${by ?? 'a newer docs'} or later; nothing was changed`,
    );
  }
  if (!store) throw refuse(dir, `${STORE_DIR}/ is missing (the format marker says format ${m.format}: the shard files were moved or deleted)`);
  return { kind: 'current', writtenBy: by };
}

/** The marker's text. */
export const markerText = () =>
  JSON.stringify({
    format: FORMAT,
    writtenBy: `docs ${docsVersion()}`,
    note: `The format of this docs data directory; its shard files are in ${STORE_DIR}/. A docs that reads an older format stops here instead of taking the directory for an empty one.`,
  }) + '\n';

/**
 * Brings `dir` (of format `from`, its interrupted commits already recovered) to the current
 * format, crash-safely: the marker is staged (fsynced) first, then `shards/` renamed to `store/`,
 * then the marker renamed into place and the directory fsynced.
 */
export async function migrateFormat(dir: string, from: DirFormat): Promise<void> {
  if (from.kind === 'current') return;
  if (from.kind === 'empty') {
    await mkdir(join(dir, STORE_DIR), { recursive: true, mode: 0o700 });
  }
  const tmp = await stageFile(join(dir, `${MARKER_TMP_PREFIX}${MARKER}`), markerText());
  if (from.kind === 'older') {
    await rename(join(dir, OLD_SHARD_DIR), join(dir, STORE_DIR));
    await syncDir(dir);
  }
  await rename(tmp, join(dir, MARKER));
  await syncDir(dir);
}
