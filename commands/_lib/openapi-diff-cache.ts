import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import envPaths from 'env-paths';
import type { DiffResult } from '../../src/openapi/diff/classify.js';
import type { LocalFile } from '../../src/openapi/diff/load.js';

// The result of `docs openapi diff` of two local files, kept between runs in the CLI's cache
// (<cache>/openapi-diff/<key>.json; DOCS_CONFIG_DIR/cache when that is set), so that diffing
// the same two files again (a script, a pre-commit hook, a re-run job) reads the changes instead of
// parsing and comparing the specs again: 1.2 + 1.7 MB of GitBook specs, ~60 ms of CPU, issue 30.
//
// Content addressed, so never stale: the key is the SHA-256 of the two files' names and bytes,
// the CLI's build (the bundle's hash, which changes with any line of its code, the rules
// included) and node's version (ICU orders names that are not ASCII). Only files that
// reference no other file (every `$ref` local, the loader's own test), so that the key holds
// everything the result depends on; only the built CLI (where the build is known). A missing,
// unreadable or corrupt cache only costs the diff.
//
// Kept on the second diff of a pair, not the first: the first leaves a mark (an empty
// <key>.seen), the second writes the result. Most pairs are diffed once (a CI job diffs each new
// version of a spec against the stored one), and writing their ~700 KB result was ~5 ms of the
// first run's ~185, for an entry nobody reads; a pair diffed again (a re-run job, a hook, a
// script) is read from the cache from its third diff on.

const MAX_ENTRIES = 8;
// Marks are empty files: more pairs may wait for their second diff.
const MAX_MARKS = 64;
const BUNDLE_HEADER = /^\/\/ docs CLI bundle ([0-9a-f]+)\n/;

const cacheDir = () =>
  join(process.env.DOCS_CONFIG_DIR ? join(process.env.DOCS_CONFIG_DIR, 'cache') : envPaths('docs', { suffix: 'nodejs' }).cache, 'openapi-diff');

/** The bundle's build hash when this runs from the built CLI (dist/cli/docs.cjs), else undefined. */
function build(): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(fileURLToPath(import.meta.url), 'r');
    const head = Buffer.alloc(64);
    const n = readSync(fd, head, 0, head.length, 0);
    return BUNDLE_HEADER.exec(head.toString('latin1', 0, n))?.[1];
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export interface DiffCache {
  get(): DiffResult | undefined;
  set(result: DiffResult): void;
}

/** The cache entry of a diff of these two files, or undefined when their result cannot be cached. */
export function diffCache(oldFile: LocalFile, newFile: LocalFile, buildId = build()): DiffCache | undefined {
  if (!buildId || oldFile.refersOutside || newFile.refersOutside) return undefined;
  const h = createHash('sha256').update(`openapi-diff 1\0${buildId}\0${process.version}\0${process.versions.icu ?? ''}\0`);
  // Each part with its length first: no two different pairs of files give the same bytes.
  for (const f of [oldFile, newFile]) h.update(`${Buffer.byteLength(f.name)}:${f.name}\0${f.bytes.length}:`).update(f.bytes);
  const dir = cacheDir();
  const key = h.digest('hex');
  const file = join(dir, `${key}.json`);
  const mark = join(dir, `${key}.seen`);
  return {
    get() {
      try {
        const data = JSON.parse(readFileSync(file, 'utf8'));
        return data?.v === 1 && Array.isArray(data.result?.changes) ? (data.result as DiffResult) : undefined;
      } catch {
        return undefined;
      }
    },
    set(result) {
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        if (!existsSync(mark)) {
          mkdirSync(dir, { recursive: true });
          writeFileSync(mark, '');
          prune(dir, '.seen');
          return;
        }
        writeFileSync(tmp, JSON.stringify({ v: 1, result }));
        renameSync(tmp, file);
        unlinkSync(mark);
        prune(dir, '.json');
      } catch {
        try {
          unlinkSync(tmp);
        } catch {
          // nothing was written
        }
      }
    },
  };
}

/** Keeps the MAX_ENTRIES most recently written entries (a result can be a few hundred KB), or marks. */
function prune(dir: string, ext: '.json' | '.seen'): void {
  const names = readdirSync(dir).filter((n) => n.endsWith(ext));
  const max = ext === '.json' ? MAX_ENTRIES : MAX_MARKS;
  if (names.length <= max) return;
  const byAge = names.map((n) => ({ n, t: statSync(join(dir, n)).mtimeMs })).sort((a, b) => a.t - b.t);
  for (const { n } of byAge.slice(0, names.length - max)) {
    try {
      unlinkSync(join(dir, n));
    } catch {
      // removed by another run
    }
  }
}
