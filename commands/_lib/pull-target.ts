import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { fileNameProblem, SEGMENT_MAX_BYTES, segmentProblem } from '../../src/content/safe-names.js';
import { DocsError } from '../../src/kernel/errors.js';

// Where `docs content pull` writes: only inside the target folder, whatever the server sends.
// The server refuses unsafe names (safe-names.ts), but a store written by an older build, or
// straight into PostgreSQL, or another server, may still hold `../../x`, `..`, `a\b` or two
// entries with one path. Every path is claimed before anything is written: a name that is not a
// safe relative path, or whose path is taken (by another entry, or on disk by a folder where a
// file goes, or by a file where a folder goes), is written under a safe name instead (sanitized, then numbered until free), with a warning naming the original.
// Writing never follows a symbolic link out of the folder: a link in the place of a file is
// replaced by the file (as --force replaces files), one in the place of a folder by a folder,
// unless it leads to a folder inside the target (then it is followed); each replacement is said.

// Characters Windows refuses in a name, and its device names (`con`, `nul.txt`, ...).
const WIN_CHARS = /[<>:"|?*]/;
const WIN_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
const windows = process.platform === 'win32';
// Case-insensitive file systems by default: `A.md` and `a.md` are one file there.
const folds = process.platform === 'darwin' || windows;

/** Why this platform refuses a segment the server's rule allows (Windows only), or undefined. */
function platformProblem(seg: string): string | undefined {
  if (!windows) return undefined;
  if (WIN_CHARS.test(seg)) return 'contains a character Windows refuses (<>:"|?*)';
  if (WIN_DEVICE.test(seg)) return 'is a Windows device name';
  if (/[. ]$/.test(seg)) return 'ends with "." or a space';
  return undefined;
}

/**
 * A safe segment from any string: unsafe characters become `_`, `.`/`..`/empty become `_`s; one
 * longer than 255 bytes is cut to 240 (room for a `-2` when that name is taken).
 */
export function safeSegment(seg: string): string {
  // eslint-disable-next-line no-control-regex
  let out = seg.replace(/[\\/\u0000-\u001f\u007f-\u009f]/g, '_');
  if (windows)
    out = out
      .replace(/[<>:"|?*]/g, '_')
      .replace(/[. ]$/, '_')
      .replace(WIN_DEVICE, '_$1$2');
  if (out === '' || out === '.' || out === '..') out = '_'.repeat(Math.max(1, out.length));
  if (Buffer.byteLength(out, 'utf8') > SEGMENT_MAX_BYTES) while (Buffer.byteLength(out, 'utf8') > 240) out = [...out].slice(0, -1).join('');
  return out;
}

/** `name.ext` → `name-2.ext` (the last segment's stem numbered). */
function numbered(rel: string, n: number): string {
  const slash = rel.lastIndexOf('/');
  const dir = rel.slice(0, slash + 1);
  const last = rel.slice(slash + 1);
  const dot = last.lastIndexOf('.');
  return dot > 0 ? `${dir}${last.slice(0, dot)}-${n}${last.slice(dot)}` : `${dir}${last}-${n}`;
}

const within = (root: string, real: string) => {
  const r = relative(root, real);
  return r === '' || (r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r));
};

const lstat = (p: string) => {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
};

const TAKEN = 'its path is taken: by another page or file, or on disk by a folder (or by a file where a folder is needed)';

export interface Renamed {
  kind: 'file' | 'page';
  original: string;
  written: string;
}

export class PullTarget {
  readonly renamed: Renamed[] = [];
  private readonly real: string;
  private readonly files = new Set<string>();
  private readonly dirs = new Set<string>();
  /** Folders checked or made by write(), relative → real. */
  private readonly folders = new Map<string, string>();
  /** While claiming: where each folder's path leads on disk (parentOnDisk), each real folder's entries (entry). Forgotten at the first write. */
  private readonly onDisk = new Map<string, string | null | undefined>();
  private readonly listed = new Map<string, Map<string, 'file' | 'link' | 'other'>>();

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.real = realpathSync(dir);
  }

  private key = (rel: string) => (folds ? rel.normalize('NFC').toLowerCase() : rel);

  /** The real folder a link leads to when it is a folder inside the target, else undefined. */
  private linkInside(p: string): string | undefined {
    try {
      const real = realpathSync(p);
      return within(this.real, real) && statSync(real).isDirectory() ? real : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The folder that `segs` (all but a file's last segment) lead to on disk: `undefined` when a
   * segment does not exist yet, or is a link that will be replaced by a folder (a link out of
   * the target, or to no folder); `null` when a file (or a socket, ...) is in the way.
   * Known once per folder while paths are claimed (nothing is written then): 1,000 pages in 20
   * folders look at 20 folders, not at every segment of every page's path.
   */
  private parentOnDisk(segs: string[]): string | null | undefined {
    if (!segs.length) return this.real;
    const k = segs.join('/');
    if (this.onDisk.has(k)) return this.onDisk.get(k);
    const up = this.parentOnDisk(segs.slice(0, -1));
    let at: string | null | undefined = up;
    if (up) {
      const p = join(up, segs.at(-1)!);
      const st = lstat(p);
      at = !st ? undefined : st.isDirectory() ? p : st.isSymbolicLink() ? this.linkInside(p) : null;
    }
    this.onDisk.set(k, at);
    return at;
  }

  /**
   * What is at `name` in the real folder `dir`: its entries listed once (one readdir, not an
   * lstat a file); where names fold (macOS, Windows) each is asked of the system, which knows
   * how it folds them.
   */
  private entry(dir: string, name: string): 'file' | 'link' | 'other' | undefined {
    if (folds) {
      const st = lstat(join(dir, name));
      return !st ? undefined : st.isFile() ? 'file' : st.isSymbolicLink() ? 'link' : 'other';
    }
    let list = this.listed.get(dir);
    if (!list) {
      list = new Map();
      try {
        for (const d of readdirSync(dir, { withFileTypes: true })) list.set(d.name, d.isFile() ? 'file' : d.isSymbolicLink() ? 'link' : 'other');
      } catch {
        // not listable: as if empty (its files are refused when written)
      }
      this.listed.set(dir, list);
    }
    return list.get(name);
  }

  /** Whether `rel` can be written: free among the claimed paths, and on disk. */
  private free(rel: string): boolean {
    const segs = rel.split('/');
    const k = this.key(rel);
    if (this.files.has(k) || this.dirs.has(k)) return false;
    for (let i = 1; i < segs.length; i++) if (this.files.has(this.key(segs.slice(0, i).join('/')))) return false;
    const parent = this.parentOnDisk(segs.slice(0, -1));
    if (parent === null) return false;
    if (parent === undefined) return true;
    // A regular file is replaced (--force); a link is replaced by the file, never followed.
    return this.entry(parent, segs.at(-1)!) !== 'other';
  }

  private take(rel: string) {
    const segs = rel.split('/');
    for (let i = 1; i < segs.length; i++) this.dirs.add(this.key(segs.slice(0, i).join('/')));
    this.files.add(this.key(rel));
  }

  /** Why `rel` is not a path this pull may write as it is, or undefined. */
  private problem(rel: string): string | undefined {
    const bad = fileNameProblem(rel);
    if (bad) return `not a safe path: ${bad}`;
    for (const seg of rel.split('/')) {
      const p = platformProblem(seg);
      if (p) return `not a path this system can write: a segment ${p}`;
    }
    return undefined;
  }

  /** A name that must be written as it is (SUMMARY.md): refused when its place is not free. */
  reserve(rel: string): string {
    if (!this.free(rel))
      throw new DocsError(
        'invalid',
        `DIR: ${join(this.dir, rel)} is in the way (a folder, or a link out of ${this.dir}); move it and pull again; nothing was written`,
      );
    this.take(rel);
    return rel;
  }

  /** Where to write the file the server names `name`: that name, or a safe one (recorded in `renamed`). */
  claimFile(name: string): string {
    const bad = this.problem(name);
    const want = bad ? name.split('/').map(safeSegment).join('/') : name;
    const tries = function* () {
      yield want;
      for (let n = 2; n < 1000; n++) yield numbered(want, n);
      // Its folder is what is in the way: the whole name as one segment, at the top.
      const flat = safeSegment(want.replaceAll('/', '_'));
      yield flat;
      for (let n = 2; n < 10_000; n++) yield numbered(flat, n);
    };
    for (const rel of tries()) {
      if (!this.free(rel)) continue;
      this.take(rel);
      if (rel !== name) this.rename('file', name, rel, bad ?? TAKEN);
      return rel;
    }
    throw new DocsError('invalid', `file ${JSON.stringify(name)}: found no free name to write it under in ${this.dir}`);
  }

  /**
   * Where to write a page: its local path (the page is `<path>.md`, or `<path>/README.md` with
   * subpages), under its parent's local path. `own` is its path below the parent as the server
   * gives it (its slug); `original` its whole path, for the warning.
   */
  claimPage(parent: string | null, own: string, original: string, hasChildren: boolean): string {
    const bad = segmentProblem(own) ?? platformProblem(own);
    const seg = bad ? safeSegment(own) : own;
    const at = (s: string) => (parent ? `${parent}/${s}` : s);
    const file = (p: string) => (hasChildren ? `${p}/README.md` : `${p}.md`);
    for (let n = 1; n < 10_000; n++) {
      const p = at(n === 1 ? seg : `${seg}-${n}`);
      if (!this.free(file(p))) continue;
      this.take(file(p));
      if (p !== original)
        this.rename(
          'page',
          original,
          file(p),
          bad ? `not a safe path segment: ${JSON.stringify(own)} ${bad}` : n > 1 ? TAKEN : "its path is not its parent's path and its slug",
        );
      return p;
    }
    throw new DocsError('invalid', `page ${original}: found no free name to write it under in ${this.dir}`);
  }

  /** Says that a link in the target was replaced (by the file, or a folder), its target untouched. */
  private note(abs: string, by: string) {
    process.stderr.write(
      `Warning: ${relative(this.real, abs).split(sep).join('/')} in ${this.dir} was a symbolic link; replaced by ${by} (what it pointed to is left as it was)\n`,
    );
  }

  private rename(kind: Renamed['kind'], original: string, written: string, why: string) {
    this.renamed.push({ kind, original, written });
    process.stderr.write(`Warning: ${kind} ${JSON.stringify(original)} written as ${written} (${why})\n`);
  }

  /** Writes a claimed path: folders made as needed, a link in the file's place replaced, never followed. */
  write(rel: string, data: string | Buffer) {
    this.onDisk.clear();
    this.listed.clear();
    const slash = rel.lastIndexOf('/');
    try {
      const target = join(this.folder(rel, slash < 0 ? '' : rel.slice(0, slash)), rel.slice(slash + 1));
      writeReplacing(target, typeof data === 'string' ? Buffer.from(data, 'utf8') : data, () => this.note(target, 'the file'));
    } catch (err) {
      if (err instanceof DocsError) throw err;
      const e = err as NodeJS.ErrnoException;
      throw new DocsError('invalid', `${join(this.dir, rel)}: cannot write it (${e.code ?? e.message})`);
    }
  }

  /**
   * The real folder `dir` (a claimed file's folder, relative) is at, made as needed: each folder
   * checked (and made) once per pull, not once per file written in it (1,000 pages in 20
   * folders: 20 checks, not 3,000 lstat calls).
   */
  private folder(rel: string, dir: string): string {
    if (dir === '') return this.real;
    const known = this.folders.get(dir);
    if (known) return known;
    const slash = dir.lastIndexOf('/');
    const parent = this.folder(rel, slash < 0 ? '' : dir.slice(0, slash));
    const seg = dir.slice(slash + 1);
    const p = join(parent, seg);
    let cur = p;
    const st = lstat(p);
    if (st?.isSymbolicLink()) {
      // A link to a folder inside is followed; any other is replaced by a folder (its target
      // is left as it is), never followed out of the target.
      const inside = this.linkInside(p);
      if (inside) cur = inside;
      else {
        unlinkSync(p);
        this.note(p, 'a folder');
        mkdirSync(p);
      }
    } else if (!st) mkdirSync(p);
    else if (!st.isDirectory()) throw new DocsError('invalid', `${join(this.dir, rel)}: ${seg} is not a folder; stopped`);
    this.folders.set(dir, cur);
    return cur;
  }
}

// O_NOFOLLOW: a link in the file's place is not followed (where the system has it: elsewhere it
// is looked for first).
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Writes `data` at `abs`, a link there replaced by the file (`replaced` says so), never followed.
 * A file that already holds these bytes is left as it is (a pull --force into the folder it
 * pulled before: on ext4, truncating a file that has data makes its close wait for the disk,
 * ~0.2 ms a file); another is overwritten in place and cut to its new length rather than
 * truncated to zero first (the same reason). The bytes on disk are the same either way.
 */
export function writeReplacing(abs: string, data: Buffer, replaced: () => void) {
  if (!NOFOLLOW && lstat(abs)?.isSymbolicLink()) {
    unlinkSync(abs);
    replaced();
  }
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDWR | constants.O_CREAT | NOFOLLOW, 0o666);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A link in its place (ELOOP with O_NOFOLLOW) is replaced; a file that cannot be read
    // (write-only) is written as before: truncated, then written.
    if (code === 'ELOOP' && lstat(abs)?.isSymbolicLink()) {
      unlinkSync(abs);
      replaced();
    } else if (code !== 'EACCES') throw err;
    fd = openSync(abs, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NOFOLLOW, 0o666);
    try {
      writeFileSync(fd, data);
    } finally {
      closeSync(fd);
    }
    return;
  }
  try {
    const size = fstatSync(fd).size;
    if (size === data.length && size > 0) {
      const had = Buffer.allocUnsafe(size);
      let got = 0;
      while (got < size) {
        const n = readSync(fd, had, got, size - got, got);
        if (n === 0) break;
        got += n;
      }
      if (got === size && had.equals(data)) return;
    }
    let put = 0;
    while (put < data.length) put += writeSync(fd, data, put, data.length - put, put);
    if (size > data.length) ftruncateSync(fd, data.length);
  } finally {
    closeSync(fd);
  }
}
