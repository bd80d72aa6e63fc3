import { hash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bucketOf } from './buckets.js';
import type { ShardData } from './backend.js';

// The files of a data directory's store, shared by the file backend (src/store/file-backend.ts),
// `docs doctor` and `docs backup`: how a shard key names its file, the catalog of committed
// shards (`checksums/NN.json`: file name -> `<SHA-256 of its text>:<bytes>`, split in buckets so that a
// commit rewrites only the buckets of the shards it touches), and what a damaged file looks like.

/** The folder of shard files (`shards/` before format 3, src/store/data-format.ts). */
export const SHARDS = 'store';
export const CHECKSUMS = 'checksums';
export const MANIFEST = 'commit.json';
export const QUARANTINE = 'quarantine';
/**
 * The prewarm record of `docs serve` (server/prewarm.ts): a hint of which shards to load at a
 * start, not data; a backup leaves it out (a restored directory's first server starts cold).
 */
export const PREWARM_FILE = 'prewarm.json';
export const SUM_BUCKETS = 64;

// `org/abc` is `org__abc.json`. A key with other characters than an id's (a hostile id in a URL:
// `%00`, `..`) is escaped, and one too long for a file name is named by its hash, so no key
// can reach outside the directory or fail with ENAMETOOLONG.
const MAX_NAME = 200;
export function fileName(key: string): string {
  const name = key
    .split('/')
    .map((seg) => encodeURIComponent(seg).replace(/^\.+/, (dots) => '%2E'.repeat(dots.length)))
    .join('__');
  return (name.length > MAX_NAME ? '~' + sha256(key) : name) + '.json';
}
export const keyOf = (file: string) => {
  const name = file.slice(0, -'.json'.length);
  return name.startsWith('~') ? name : name.split('__').map(decodeURIComponent).join('/');
};

// crypto.hash: one call, no Hash object (~6x quicker than createHash on small texts; every shard read is checked).
export const sha256 = (text: string) => hash('sha256', text, 'hex');
export const sumBucket = (file: string) => bucketOf(file, SUM_BUCKETS);
export const bucketFile = (b: number) => `${String(b).padStart(2, '0')}.json`;

/** The bucket a path from the data directory names (`checksums/NN.json`), or undefined. */
export function bucketAt(path: string): number | undefined {
  const m = BUCKET_PATH.exec(path);
  return m && Number(m[1]) < SUM_BUCKETS ? Number(m[1]) : undefined;
}

const BUCKET_PATH = new RegExp(`^${CHECKSUMS}/(\\d\\d)\\.json$`);

/**
 * Catalog bucket `b` as a journal's replay leaves it (journal.ts `lastWrites`): `changes` applied
 * over `base`, its last whole text in the journal (null: deleted), or over its file (undefined).
 * With `move`, `base` is a big commit's staged temp file, read while it is there, else the file
 * it was renamed into. Shared by the replay (file-backend.ts) and `docs doctor`, which reads
 * what a replay would write. Throws CatalogDamage for a bucket that is not one.
 */
export async function bucketReplayed(
  dir: string,
  b: number,
  base: string | null | undefined,
  move: boolean,
  changes: ReadonlyMap<string, string | null>,
): Promise<Map<string, string>> {
  let bytes: Buffer | undefined;
  if (base === null) bytes = undefined;
  else if (base !== undefined && !move) bytes = Buffer.from(base);
  else bytes = (move ? await readFile(join(dir, base!)).catch(() => undefined) : undefined) ?? (await readBucketBytes(dir, b));
  return applyChanges(parseBucket(b, bytes), changes);
}

/** `sums` (changed in place) with a journal's changes applied: each file name set to its entry, or removed (null). */
export function applyChanges(sums: Map<string, string>, changes: ReadonlyMap<string, string | null>): Map<string, string> {
  for (const [file, entry] of changes) {
    if (entry === null) sums.delete(file);
    else sums.set(file, entry);
  }
  return sums;
}

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A shard file's text as a shard, or what is wrong with it (cut short, empty, not JSON, wrong shape). */
export function parseShard(text: string): ShardData | string {
  if (text.trim() === '') return 'is empty';
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err: any) {
    return `is not valid JSON, cut short or damaged (${err.message})`;
  }
  if (!isObject(data)) return `is not a shard: its JSON is ${kindOf(data)}, not an object of tables`;
  for (const [table, rows] of Object.entries(data)) {
    if (!isObject(rows)) return `is not a shard: its table ${JSON.stringify(table)} is ${kindOf(rows)}, not an object of rows`;
  }
  return data as ShardData;
}

/** What a shard file the catalog does not list is (the start-up message points at --adopt). */
export const STRAY = 'is not in the catalog of committed shards (written by another docs, or put there by hand): docs doctor --adopt checks it and takes it in';

/** A catalog entry: `<sha256 of the text>:<bytes>` (the size lets open check files with a stat). */
export const catalogEntry = (text: string) => `${sha256(text)}:${Buffer.byteLength(text)}`;
export const entrySize = (entry: string) => Number(entry.slice(entry.indexOf(':') + 1));

/**
 * A bucket's text: what `JSON.stringify(Object.fromEntries(sums))` writes, made by joining its
 * entries. A commit rewrites the buckets of the shards it writes (6–7 for a space's creation),
 * each ~330 entries at 10,000 spaces: making an object of them and stringifying it took ~0.35 ms
 * a bucket, most of what a create's CPU grew by between 1,000 and 10,000 spaces. File names are
 * made by `fileName` (no quote, backslash or control character) and entries by `catalogEntry`;
 * a name that would need escaping is escaped as JSON.stringify does.
 */
export function bucketText(sums: ReadonlyMap<string, string>): string {
  const parts: string[] = [];
  for (const [file, entry] of sums) parts.push(`${PLAIN_NAME.test(file) ? `"${file}"` : JSON.stringify(file)}:"${entry}"`);
  return `{${parts.join(',')}}`;
}
const PLAIN_NAME = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/** What is wrong with a committed shard's text (given its catalog entry), or its data. */
export function checkShard(text: string, entry: string): ShardData | string {
  const data = parseShard(text);
  if (typeof data === 'string') return data;
  if (catalogEntry(text) !== entry) return 'does not match its checksum in the catalog (changed outside docs)';
  return data;
}

/** What is wrong with a committed shard file of `size` bytes, judged by its size alone. */
export function sizeProblem(size: number, entry: string): string | undefined {
  const want = entrySize(entry);
  if (size === want) return undefined;
  if (size === 0) return 'is empty';
  return size < want ? `is cut short (${size} of its ${want} bytes)` : `has changed outside docs (${size} bytes, committed ${want})`;
}

/** One bucket of the catalog (file name -> entry); empty when its file does not exist. */
export async function readBucket(dir: string, b: number): Promise<Map<string, string>> {
  return parseBucket(b, await readBucketBytes(dir, b));
}

/** A bucket file's bytes, read but not parsed; undefined when it does not exist. */
export async function readBucketBytes(dir: string, b: number): Promise<Buffer | undefined> {
  try {
    return await readFile(join(dir, CHECKSUMS, bucketFile(b)));
  } catch (err: any) {
    if (err.code !== 'ENOENT') throw err;
    return undefined;
  }
}

/** readBucketBytes, reading the file synchronously (FileBackendOptions.syncReads). */
export function readBucketBytesSync(dir: string, b: number): Buffer | undefined {
  try {
    return readFileSync(join(dir, CHECKSUMS, bucketFile(b)));
  } catch (err: any) {
    if (err.code !== 'ENOENT') throw err;
    return undefined;
  }
}

const [OPEN, COMMA, CLOSE, QUOTE] = ['{', ',', '}', '"'].map((c) => c.charCodeAt(0));

/**
 * The entry of `file` in a bucket's bytes, found without parsing the rest of it (nor decoding
 * it): a command that loads one shard of a bucket checks that shard's entry, not the ~300 others
 * a bucket holds at 10,000 spaces (a page of a list touches nearly every bucket). Found only as
 * docs writes it (JSON.stringify: `"name":"<sha256>:<bytes>"` between `{` or `,` and `,` or `}`,
 * once); undefined otherwise, and the caller parses the bucket whole (the file is not in it, or
 * the bucket is damaged or was written otherwise: a key twice, which JSON.parse reads as its last).
 */
export function entryIn(bytes: Buffer, file: string): string | undefined {
  const key = `${JSON.stringify(file)}:"`;
  const at = bytes.indexOf(key, 0, 'utf8');
  if (at < 1 || (bytes[at - 1] !== OPEN && bytes[at - 1] !== COMMA)) return undefined;
  const start = at + Buffer.byteLength(key);
  const end = bytes.indexOf(QUOTE!, start);
  if (end < 0 || (bytes[end + 1] !== COMMA && bytes[end + 1] !== CLOSE) || bytes.includes(key, end, 'utf8')) return undefined;
  const entry = bytes.toString('latin1', start, end);
  return ENTRY.test(entry) ? entry : undefined;
}

const ENTRY = /^[0-9a-f]{64}:\d+$/;

/** A bucket file's bytes (undefined: no file) as its entries, or CatalogDamage naming what is wrong. */
export function parseBucket(b: number, bytes: Buffer | undefined): Map<string, string> {
  if (bytes === undefined) return new Map();
  const text = bytes.toString('utf8');
  const name = bucketFile(b);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err: any) {
    throw new CatalogDamage(`${CHECKSUMS}/${name}`, text.trim() ? `is not valid JSON, cut short or damaged (${err.message})` : 'is empty');
  }
  const damaged = () => new CatalogDamage(`${CHECKSUMS}/${name}`, 'is not a bucket of the catalog (an object of file name -> "sha256:bytes")');
  if (!isObject(data)) throw damaged();
  // Checked and copied in one pass (no arrays of values and entries: a bucket holds ~300
  // entries at 10,000 spaces, and a listing reads most of the 64).
  const entries = new Map<string, string>();
  for (const file in data) {
    const v = data[file];
    if (typeof v !== 'string' || !ENTRY.test(v)) throw damaged();
    entries.set(file, v);
  }
  return entries;
}

/** The whole catalog of committed shards: bucket -> (file name -> entry). No catalog: undefined. */
export async function readCatalog(dir: string): Promise<Map<number, Map<string, string>> | undefined> {
  if (!existsSync(join(dir, CHECKSUMS))) return undefined;
  const buckets = new Map<number, Map<string, string>>();
  await Promise.all(Array.from({ length: SUM_BUCKETS }, async (_, b) => buckets.set(b, await readBucket(dir, b))));
  return buckets;
}

/** A file of the store that is damaged: `file` (relative to the data directory) and what is wrong. */
export class CatalogDamage extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file} ${problem}`);
  }
}
