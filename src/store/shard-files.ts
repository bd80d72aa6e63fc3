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
  let text: string | undefined;
  try {
    text = await readFile(join(dir, CHECKSUMS, bucketFile(b)), 'utf8');
  } catch (err: any) {
    if (err.code !== 'ENOENT') throw err;
  }
  return parseBucket(b, text);
}

/** readBucket, reading the file synchronously (FileBackendOptions.syncReads). */
export function readBucketSync(dir: string, b: number): Map<string, string> {
  let text: string | undefined;
  try {
    text = readFileSync(join(dir, CHECKSUMS, bucketFile(b)), 'utf8');
  } catch (err: any) {
    if (err.code !== 'ENOENT') throw err;
  }
  return parseBucket(b, text);
}

const ENTRY = /^[0-9a-f]{64}:\d+$/;

/** A bucket file's text (undefined: no file) as its entries, or CatalogDamage naming what is wrong. */
function parseBucket(b: number, text: string | undefined): Map<string, string> {
  if (text === undefined) return new Map();
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
