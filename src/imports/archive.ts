import { gunzipSync } from 'node:zlib';
import { invalid } from '../kernel/errors.js';

// An uploaded archive (zip, tar, tar.gz) read into memory as a map of relative paths to bytes,
// with the bounds of docs/manual/imports-and-git.md#archives: an entry that names a path outside
// the archive (`..` segments, an absolute path, a drive letter, a backslash), a symbolic or hard
// link, or a device is refused (400 naming it, before anything is written); the number of entries
// and the bytes they expand to are capped, so an archive bomb stops at the cap instead of filling
// memory. A single top folder common to every entry (`site-main/`) is taken off.

export const ARCHIVE_LIMITS = { maxEntries: 2000, maxBytes: 64 * 1024 * 1024 };

export type Files = Map<string, Buffer>;

/** Why a path in an archive is refused, or undefined. */
export function unsafePath(name: string): string | undefined {
  if (!name) return 'an empty name';
  if (name.includes('\\')) return 'a backslash';
  if (name.startsWith('/') || /^[a-z]:/i.test(name)) return 'an absolute path';
  if (name.split('/').some((s) => s === '..')) return 'a ".." segment (outside the archive)';
  if (/[\u0000-\u001f]/.test(name)) return 'a control character';
  return undefined;
}

function checkName(kind: string, name: string): string {
  const why = unsafePath(name);
  if (why) throw invalid(`archive: ${kind} entry ${JSON.stringify(name)} has ${why}; nothing was imported`);
  return name.replace(/^(\.\/)+/, '');
}

class Budget {
  entries = 0;
  bytes = 0;
  add(name: string, size: number) {
    if (++this.entries > ARCHIVE_LIMITS.maxEntries) throw invalid(`archive: more than ${ARCHIVE_LIMITS.maxEntries} entries; nothing was imported`);
    this.bytes += size;
    if (this.bytes > ARCHIVE_LIMITS.maxBytes)
      throw invalid(`archive: expands to more than ${ARCHIVE_LIMITS.maxBytes} bytes (at ${JSON.stringify(name)}); nothing was imported`);
  }
}

/** The kind of archive the bytes are, by their magic numbers. */
export function archiveKind(b: Buffer): 'zip' | 'gzip' | 'tar' | undefined {
  if (b.length >= 4 && b.readUInt32LE(0) === 0x04034b50) return 'zip';
  if (b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b) return 'gzip';
  if (b.length >= 512 && b.toString('latin1', 257, 262) === 'ustar') return 'tar';
  return undefined;
}

/** The files of an archive, checked and bounded; `label` names it in errors. */
export async function readArchive(bytes: Buffer, label: string): Promise<Files> {
  const kind = archiveKind(bytes);
  if (kind === 'zip') return stripTop(await readZip(bytes));
  if (kind === 'gzip') {
    let tar: Buffer;
    try {
      tar = gunzipSync(bytes, { maxOutputLength: ARCHIVE_LIMITS.maxBytes + 1024 * 1024 });
    } catch (err) {
      const bomb = (err as any).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError;
      throw invalid(`archive ${label}: ${bomb ? `expands to more than ${ARCHIVE_LIMITS.maxBytes} bytes` : 'not valid gzip'}; nothing was imported`);
    }
    return stripTop(readTar(tar, label));
  }
  if (kind === 'tar') return stripTop(readTar(bytes, label));
  throw invalid(`archive ${label}: not a zip, tar or tar.gz archive; nothing was imported`);
}

/** Zip: the central directory read first (names, link bits, declared sizes), then fflate inflates within the budget. */
async function readZip(bytes: Buffer): Promise<Files> {
  const eocd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw invalid('archive: a zip without its central directory; nothing was imported');
  const count = bytes.readUInt16LE(eocd + 10);
  let at = bytes.readUInt32LE(eocd + 16);
  const budget = new Budget();
  const wanted = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) throw invalid('archive: a damaged zip central directory; nothing was imported');
    const madeBy = bytes[at + 5]!;
    const size = bytes.readUInt32LE(at + 24);
    const nameLen = bytes.readUInt16LE(at + 28);
    const extraLen = bytes.readUInt16LE(at + 30);
    const commentLen = bytes.readUInt16LE(at + 32);
    const mode = bytes.readUInt32LE(at + 38) >>> 16;
    const raw = bytes.toString('utf8', at + 46, at + 46 + nameLen);
    at += 46 + nameLen + extraLen + commentLen;
    const name = checkName('zip', raw);
    const type = mode & 0o170000;
    if (madeBy === 3 && type === 0o120000) throw invalid(`archive: zip entry ${JSON.stringify(raw)} is a symbolic link; nothing was imported`);
    if (madeBy === 3 && type !== 0 && type !== 0o100000 && type !== 0o040000)
      throw invalid(`archive: zip entry ${JSON.stringify(raw)} is not a regular file; nothing was imported`);
    if (name.endsWith('/') || name === '') continue;
    budget.add(name, size);
    wanted.set(raw, size);
  }
  const { unzipSync } = await import('fflate');
  let out: Record<string, Uint8Array>;
  try {
    out = unzipSync(bytes, { filter: (f) => wanted.has(f.name) });
  } catch (err) {
    throw invalid(`archive: not a valid zip (${(err as Error).message}); nothing was imported`);
  }
  const files: Files = new Map();
  const actual = new Budget();
  for (const [raw, data] of Object.entries(out)) {
    // A declared size that lies is caught here: what was inflated counts, not what was declared.
    if (data.length !== wanted.get(raw)) throw invalid(`archive: zip entry ${JSON.stringify(raw)} is not the size it declares; nothing was imported`);
    actual.add(raw, data.length);
    files.set(checkName('zip', raw), Buffer.from(data));
  }
  return files;
}

const octal = (b: Buffer, start: number, len: number) => {
  const s = b
    .toString('latin1', start, start + len)
    .replace(/\0.*$/, '')
    .trim();
  return s ? Number.parseInt(s, 8) : 0;
};

/** Tar (ustar, pax `path` records, GNU long names): regular files only. */
function readTar(b: Buffer, label: string): Files {
  const files: Files = new Map();
  const budget = new Budget();
  let at = 0;
  let longName: string | undefined;
  while (at + 512 <= b.length) {
    const h = b.subarray(at, at + 512);
    if (h.every((x) => x === 0)) break;
    const size = octal(h, 124, 12);
    if (!Number.isFinite(size) || size < 0) throw invalid(`archive ${label}: a damaged tar header; nothing was imported`);
    const type = String.fromCharCode(h[156]!) || '0';
    const prefix = h.toString('utf8', 345, 500).replace(/\0.*$/s, '');
    const base = h.toString('utf8', 0, 100).replace(/\0.*$/s, '');
    const name = longName ?? (prefix ? `${prefix}/${base}` : base);
    const data = b.subarray(at + 512, at + 512 + size);
    if (data.length < size) throw invalid(`archive ${label}: a truncated tar; nothing was imported`);
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x' || type === 'L') {
      const text = data.toString('utf8');
      longName = type === 'L' ? text.replace(/\0.*$/s, '') : (/(?:^|\n)\d+ path=([^\n]*)\n/.exec(text)?.[1] ?? undefined);
      continue;
    }
    longName = undefined;
    if (type === 'g') continue;
    const clean = checkName('tar', name);
    if (type === '2' || type === '1')
      throw invalid(`archive: tar entry ${JSON.stringify(name)} is a ${type === '2' ? 'symbolic' : 'hard'} link; nothing was imported`);
    if (type === '5') continue;
    if (type !== '0' && type !== '\0' && type !== '7') throw invalid(`archive: tar entry ${JSON.stringify(name)} is not a regular file; nothing was imported`);
    budget.add(clean, size);
    files.set(clean, Buffer.from(data));
  }
  return files;
}

/** Takes off a top folder every entry is in (`project-main/docs/a.md` -> `docs/a.md`). */
function stripTop(files: Files): Files {
  const names = [...files.keys()];
  const first = names[0]?.split('/')[0];
  if (!first || names.some((n) => !n.startsWith(`${first}/`))) return files;
  return new Map([...files].map(([n, b]) => [n.slice(first.length + 1), b]));
}
