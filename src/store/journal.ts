import { hash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isAbsolute } from 'node:path';

// The commit journal of a data directory (src/store/file-backend.ts): a commit's files are staged
// as temp files without fsync, then one record holding every file's new text (or its deletion) is
// appended to `journal` and fdatasync'd: that is the commit point, one sync whatever the number
// of files (a commit of 32 renames over 64 spaces stages ~60 files, each fsynced before). The
// temp files are renamed into place after it. A checkpoint (every few MB of records, and at
// close) fsyncs each file written since the last one, once, and empties the journal. After a
// crash, open replays the records left (the last text of each file wins), so a file whose bytes
// never reached the disk is written again; a record cut short by the crash (never acknowledged:
// its sync had not returned) fails its checksum and ends the replay.
//
// A record: `J <sha256 of the body, hex> <bytes of the body>\n<body>`; the body is entries
// `W <path> <bytes>\n<text>\n` (a file's new text), `D <path> 0\n\n` (a file deleted) or
// `M <path> <bytes>\n<temp path>\n` (a temp file, fsynced before the record, to rename over the
// file: a commit of more than BIG_COMMIT characters, whose texts would make one record of
// hundreds of MB in a `docs migrate`), paths relative to the data directory (shard and catalog
// file names never hold a space or newline), or `A <path> <bytes> <offset>\n<text>\n`: lines
// appended to a log file (src/store/log-files.ts) at byte `offset`, so a replay can tell whether
// they are there already (a crash after the checkpoint's append, before the journal was emptied)
// and never appends them twice. A docs before log files stops its replay at such a record.
// A catalog bucket's changes are `C <path> <bytes>\n<JSON: file name -> its entry, or null when
// removed>\n` (src/store/shard-files.ts): a commit journals the few entries it changes, not the
// bucket's whole text (~28 KB at 16,000 shards); a replay applies them in order over the bucket
// as the journal's last whole text of it, or its file, gives it. Each sets entries to absolute
// values, so applying them again over a file a checkpoint already wrote (a crash before the
// journal was emptied) changes nothing. A docs before them stops its replay at such a record too.

export const JOURNAL = 'journal';

/**
 * One entry of a record: a file's new text, or null when the file is deleted; with `move`, `text`
 * is the temp file to rename over it; with `'A'`, lines appended to a log file at `offset`.
 */
export type JournalEntry = [path: string, text: string | null, move?: true] | LogAppend | BucketDelta;
export type LogAppend = [path: string, text: string, append: 'A', offset: number];
export const isAppend = (e: JournalEntry): e is LogAppend => e[2] === 'A';
/** Entries of a catalog bucket changed by a commit (`changes`: deltaText's JSON), applied over the bucket. */
export type BucketDelta = [path: string, changes: string, delta: 'C'];
export const isDelta = (e: JournalEntry): e is BucketDelta => e[2] === 'C';

/** A bucket's changes as a record holds them: file name -> its new entry, null when removed. */
export const deltaText = (changes: ReadonlyMap<string, string | null>): string => JSON.stringify(Object.fromEntries(changes));

/** The changes of a `C` entry; an Error when its text is not such an object (never written so). */
export function deltaOf(path: string, text: string): Map<string, string | null> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error(`${JOURNAL}: a record's changes to ${path} are not an object`);
  const changes = new Map<string, string | null>();
  for (const [file, entry] of Object.entries(data)) {
    if (entry !== null && (typeof entry !== 'string' || !ENTRY.test(entry)))
      throw new Error(`${JOURNAL}: a record's change to ${path} gives ${file} ${JSON.stringify(entry)}, not an entry`);
    changes.set(file, entry);
  }
  return changes;
}
const ENTRY = /^[0-9a-f]{64}:\d+$/;

/** Characters of text in a commit above which its files are fsynced temp files the record names (`M`). */
export const BIG_COMMIT = 8 << 20;

/** A record's text for `entries`. */
export function journalRecord(entries: JournalEntry[]): string {
  const parts: string[] = [];
  for (const e of entries) {
    const [path, text, move] = e;
    if (isAppend(e)) parts.push(`A ${path} ${Buffer.byteLength(e[1])} ${e[3]}\n${e[1]}\n`);
    else if (isDelta(e)) parts.push(`C ${path} ${Buffer.byteLength(e[1])}\n${e[1]}\n`);
    else parts.push(text === null ? `D ${path} 0\n\n` : `${move ? 'M' : 'W'} ${path} ${Buffer.byteLength(text)}\n${text}\n`);
  }
  const body = parts.join('');
  return `J ${hash('sha256', body, 'hex')} ${Buffer.byteLength(body)}\n${body}`;
}

const NL = 0x0a;

/**
 * The entries of the whole records in `bytes`, in order, and the offset where they end: a
 * record cut short or not matching its checksum (a crash during its append) ends the replay.
 */
export function parseJournal(bytes: Buffer): { entries: JournalEntry[]; end: number; records: number } {
  const entries: JournalEntry[] = [];
  let pos = 0;
  let records = 0;
  while (pos < bytes.length) {
    const nl = bytes.indexOf(NL, pos);
    if (nl < 0) break;
    const head = /^J ([0-9a-f]{64}) (\d+)$/.exec(bytes.toString('latin1', pos, nl));
    if (!head) break;
    const size = Number(head[2]);
    const start = nl + 1;
    if (start + size > bytes.length) break;
    const body = bytes.subarray(start, start + size);
    if (hash('sha256', body, 'hex') !== head[1]) break;
    const got: JournalEntry[] = [];
    let p = 0;
    let ok = true;
    while (p < body.length) {
      const e = body.indexOf(NL, p);
      const m = e < 0 ? null : /^([WDMAC]) (\S+) (\d+)(?: (\d+))?$/.exec(body.toString('utf8', p, e));
      const len = m ? Number(m[3]) : 0;
      if (!m || (m[1] === 'A') !== (m[4] !== undefined) || e + 1 + len + 1 > body.length || body[e + 1 + len] !== NL) {
        ok = false;
        break;
      }
      const text = m[1] === 'D' ? null : body.toString('utf8', e + 1, e + 1 + len);
      got.push(m[1] === 'M' ? [m[2]!, text, true] : m[1] === 'A' ? [m[2]!, text!, 'A', Number(m[4])] : m[1] === 'C' ? [m[2]!, text!, 'C'] : [m[2]!, text]);
      p = e + 1 + len + 1;
    }
    if (!ok) break;
    entries.push(...got);
    pos = start + size;
    records++;
  }
  return { entries, end: pos, records };
}

/** The journal's entries, or undefined when there is none. */
export async function readJournal(path: string): Promise<{ entries: JournalEntry[]; end: number; records: number } | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err: any) {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  }
  return parseJournal(bytes);
}

/**
 * What a replay writes for one file: its last text (null: deleted; with `move`, the temp file
 * renamed over it), or, for a catalog bucket with changes (`C`) after its last whole text,
 * that base and the changes merged in order (each file name's last entry): `base` undefined is
 * the bucket's file as it is, a temp file (`move`) is that file once renamed into place.
 */
export type LastWrite = [text: string | null, move: boolean] | [base: string | null | undefined, move: boolean, changes: Map<string, string | null>];

/**
 * Each file's last entry of `entries` (in the order of those last entries): what a replay writes
 * (src/store/file-backend.ts) and what `docs doctor` reads in place of the files. A bucket's
 * changes are merged over its last whole text (a whole text after them replaces them).
 * A path outside the data directory (absolute, or with `..`) is refused: a record names none.
 * Appends to log files are left out (replayed in order: src/store/log-files.ts `replayLog`).
 */
export function lastWrites(entries: JournalEntry[]): Map<string, LastWrite> {
  const last = new Map<string, LastWrite>();
  for (const e of entries) {
    const [path, text, move] = e;
    for (const p of move === true ? [path, text!] : [path])
      if (isAbsolute(p) || p.split('/').includes('..')) throw new Error(`${JOURNAL}: a record names ${p}, outside the data directory`);
    if (isAppend(e)) continue;
    const had = last.get(path);
    last.delete(path);
    if (isDelta(e)) {
      // Absolute entries: merged, the last of each file name wins, as applying them in order would.
      const changes = had?.[2] ?? new Map<string, string | null>();
      for (const [file, entry] of deltaOf(path, e[1])) changes.set(file, entry);
      last.set(path, had ? [had[0], had[1], changes] : [undefined, false, changes]);
    } else last.set(path, [text, move === true]);
  }
  return last;
}
