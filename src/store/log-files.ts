import { mkdir, open as openFileHandle, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LOG_PREFIX, logOrder, type ShardData } from './backend.js';
import type { OpenFile } from './durable-file.js';
import { isAppend, type JournalEntry, type LogAppend } from './journal.js';
import { fileName, keyOf } from './shard-files.js';

// The log files of a data directory (TableSpec.log, the audit log: src/store/file-backend.ts
// `logs`): one file per log under `logs/`, named as its shard would be (`log__audit__<org>.jsonl`),
// a line per change, appended and never rewritten by a commit:
//   {"i":"<id>","o":"<order>","t":"<table>","r":<row>}   a row appended (an id already there: left as it is)
//   {"x":"<id>"}                                          a row removed
// The id and order (backend.ts logOrder) lead the line, so a trim finds them without parsing the
// row and writes the lines it keeps as they are: parsing and writing again a log of 5,000 events
// at every trim (one every ~500 events) was ~15% of a busy server's main thread.
// A commit's lines go in its journal record (the commit point) with the offset they go at, and
// are appended to the file at the next checkpoint; a trim rewrites the file whole (temp file,
// fsync, rename). The file is read only when the log is loaded (listed) or trimmed.

/** The folder of log files. */
export const LOGS = 'logs';

export const isLogKey = (key: string) => key.startsWith(LOG_PREFIX);
/** `log/audit/o1` is `log__audit__o1.jsonl`. */
export const logFile = (key: string) => `${fileName(key)}l`;
export const isLogFile = (file: string) => file.endsWith('.jsonl');
export const logKeyOf = (file: string) => keyOf(file.slice(0, -1));

export interface LogRow {
  table: string;
  row: { id: string };
}

/** The line of each row appended, then of each removed. */
export function lineList(append: readonly LogRow[], remove: readonly string[] = []): string[] {
  const lines: string[] = [];
  for (const { table, row } of append)
    lines.push(`{"i":${JSON.stringify(row.id)},"o":${JSON.stringify(logOrder(row))},"t":${JSON.stringify(table)},"r":${JSON.stringify(row)}}\n`);
  for (const id of remove) lines.push(`{"x":${JSON.stringify(id)}}\n`);
  return lines;
}

/** The lines of rows appended and removed (in that order). */
export const logLines = (append: readonly LogRow[], remove: readonly string[] = []) => lineList(append, remove).join('');

export interface ParsedLog {
  /** The rows of the log, by id, in the order appended. */
  rows: Map<string, LogRow>;
  /** Bytes of the whole, readable lines from the start (what a repair keeps of a torn file). */
  whole: number;
  /** What is wrong with the file: its last line cut short, or a line that is no change of a log. */
  problem?: string;
}

/**
 * A log file's text (and the lines not written to it yet) as its rows: the lines scanned as a trim
 * scans them (`scanLog`), then the lines of the rows still there parsed.
 */
export function parseLog(text: string): ParsedLog {
  const scanned = scanLog(text);
  const rows = new Map<string, LogRow>();
  for (const l of scanned.rows.values()) {
    let change: any;
    try {
      change = JSON.parse(text.slice(l.start, l.end - 1));
    } catch {
      change = undefined;
    }
    if (typeof change?.t !== 'string' || typeof change.r?.id !== 'string') return { rows, whole: scanned.whole, problem: noChange(l.line) };
    rows.set(l.id, { table: change.t, row: change.r });
  }
  return { rows, whole: scanned.whole, ...(scanned.problem ? { problem: scanned.problem } : {}) };
}

const noChange = (line: number) => `is damaged: line ${line} is no change of a log (a row appended or removed)`;

const byOrder = (a: LogRow, b: LogRow) => {
  const x = logOrder(a.row);
  const y = logOrder(b.row);
  return x < y ? -1 : x > y ? 1 : a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0;
};

/** The log as a shard (`{ [table]: { [id]: row } }`), oldest first by `logOrder`, then id. */
export function logShard(rows: Map<string, LogRow>): ShardData {
  const data: ShardData = {};
  for (const r of [...rows.values()].sort(byOrder)) (data[r.table] ??= {})[r.row.id] = r.row;
  return data;
}

/** A row's line as a trim reads it: its id, its order and where its line is. */
interface LineOf {
  id: string;
  ord: string;
  start: number;
  end: number;
  /** Its number in the file, from 1. */
  line: number;
}

const HEAD = '{"i":"';
const ORD = '","o":"';
const TABLE = '","t":';

/** The id and order of an appended row's line (`text` from `pos` to the newline at `nl`), or the id it removes. */
function scanLine(text: string, pos: number, nl: number): { id: string; ord?: string } | undefined {
  if (text.startsWith(HEAD, pos) && text.charCodeAt(nl - 1) === 0x7d /* } */) {
    const a = text.indexOf(ORD, pos + HEAD.length);
    const b = a < 0 || a > nl ? -1 : text.indexOf(TABLE, a + ORD.length);
    if (b > 0 && b < nl) {
      const id = text.slice(pos + HEAD.length, a);
      const ord = text.slice(a + ORD.length, b);
      if (!id.includes('\\') && !ord.includes('\\')) return { id, ord };
    }
  }
  let change: any;
  try {
    change = JSON.parse(text.slice(pos, nl));
  } catch {
    return undefined;
  }
  if (typeof change?.i === 'string' && typeof change.o === 'string' && typeof change.r === 'object') return { id: change.i, ord: change.o };
  if (typeof change?.t === 'string' && typeof change.r?.id === 'string') return { id: change.r.id, ord: logOrder(change.r) };
  if (typeof change?.x === 'string') return { id: change.x };
  return undefined;
}

/**
 * The rows of a log's text with where their lines are (positions in the text), the bytes of its
 * whole, readable lines from the start (what a repair keeps of a torn file), or what is wrong with it.
 */
function scanLog(text: string): { rows: Map<string, LineOf>; whole: number; problem?: string } {
  const rows = new Map<string, LineOf>();
  let pos = 0;
  let n = 0;
  let whole = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    n++;
    if (nl < 0) return { rows, whole, problem: `is cut short: its last line (${n}) has no end` };
    const got = scanLine(text, pos, nl);
    if (!got) return { rows, whole, problem: noChange(n) };
    if (got.ord === undefined) rows.delete(got.id);
    else if (!rows.has(got.id)) rows.set(got.id, { id: got.id, ord: got.ord, start: pos, end: nl + 1, line: n });
    whole += Buffer.byteLength(text.slice(pos, nl + 1));
    pos = nl + 1;
  }
  return { rows, whole };
}

const byOrd = (a: { id: string; ord: string }, b: { id: string; ord: string }) =>
  a.ord < b.ord ? -1 : a.ord > b.ord ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

interface Indexed {
  id: string;
  ord: string;
  bytes: number;
  /** Removed: left in `order` until it is compacted. */
  dead: boolean;
}

/**
 * What a process knows of a log it trims (src/store/file-backend.ts keeps one per log trimmed,
 * in step with its commits): each row's order and the bytes of its line, and the bytes of the
 * rows' lines together. A trim then reads nothing: it reads and scans the log once, to make
 * this, and again only to write the log anew. Reading and scanning a log of 5,000 events at
 * each trim (one every ~500 events) was ~10% of a busy server's main thread.
 * The rows are kept in the order trims remove them (order, then id): events come in time order,
 * so an added row almost always goes at the end, and a trim walks the oldest rows only. Sorting
 * the whole log at each trim was ~4% of a write's CPU with the audit log on (embedded, one space).
 */
export class LogIndex {
  private readonly byId = new Map<string, Indexed>();
  /** The rows in trim order from `head` on; removed ones are skipped, and dropped by `compact`. */
  private order: Indexed[] = [];
  private head = 0;
  private dead = 0;
  /** Bytes of the lines of the rows the log holds. */
  live = 0;

  /** The index of a log's text, or what is wrong with it. */
  static of(text: string): LogIndex | string {
    const { rows, problem } = scanLog(text);
    if (problem) return problem;
    const idx = new LogIndex();
    for (const r of rows.values()) idx.add(r.id, r.ord, Buffer.byteLength(text.slice(r.start, r.end)));
    return idx;
  }

  /** How many rows the log holds. */
  get size(): number {
    return this.byId.size;
  }

  add(id: string, ord: string, bytes: number): void {
    if (this.byId.has(id)) return;
    const row: Indexed = { id, ord, bytes, dead: false };
    this.byId.set(id, row);
    this.live += bytes;
    const order = this.order;
    if (order.length === this.head || byOrd(order[order.length - 1]!, row) <= 0) {
      order.push(row);
      return;
    }
    // Out of order (a clock set back, rows of a log copied in): placed by binary search.
    let lo = this.head;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (byOrd(order[mid]!, row) <= 0) lo = mid + 1;
      else hi = mid;
    }
    order.splice(lo, 0, row);
  }

  remove(id: string): void {
    const r = this.byId.get(id);
    if (!r) return;
    this.byId.delete(id);
    this.live -= r.bytes;
    r.dead = true;
    if (++this.dead > 64 && this.dead > this.byId.size) this.compact();
  }

  private compact(): void {
    this.order = this.order.slice(this.head).filter((r) => !r.dead);
    this.head = 0;
    this.dead = 0;
  }

  /**
   * What a trim removes (ShardBackend.trimLog): all but the newest `keep` rows ordered at or after
   * `after` (by order, then id); the rows left and the oldest one's order ('' for none).
   */
  plan(keep: number, after: string): { removed: string[]; count: number; oldest: string; bytes: number } {
    const order = this.order;
    while (this.head < order.length && order[this.head]!.dead) this.head++;
    const total = this.byId.size;
    const beyond = keep > 0 ? Math.max(0, total - keep) : total;
    let bytes = 0;
    const removed: string[] = [];
    let oldest = '';
    for (let i = this.head; i < order.length; i++) {
      const r = order[i]!;
      if (r.dead) continue;
      if (removed.length >= beyond && (keep <= 0 || r.ord >= after)) {
        oldest = r.ord;
        break;
      }
      removed.push(r.id);
      bytes += r.bytes;
    }
    return { removed, count: total - removed.length, oldest, bytes };
  }
}

/** The lines of the rows of log `text` not in `removed`, oldest first: the log written anew. */
export function keptLines(text: string, removed: ReadonlySet<string>): string {
  const { rows } = scanLog(text);
  const kept = [...rows.values()].filter((r) => !removed.has(r.id));
  // Appended in time order, a log's lines are almost always in order already.
  let sorted = true;
  for (let i = 1; i < kept.length && sorted; i++) sorted = byOrd(kept[i - 1]!, kept[i]!) <= 0;
  if (!sorted) kept.sort(byOrd);
  return kept.map((r) => text.slice(r.start, r.end)).join('');
}

/**
 * Replays the journal's entries for one log file (`path`, from the data directory), in order:
 * the last replacement (a trim's or a copy's temp file renamed over it, a deletion), then each
 * append after it at its offset, written only where the file does not hold those bytes already
 * (a crash after the checkpoint's append, before the journal was emptied), so no row is written
 * twice; what follows the last append (a torn append) is cut off. The file is fsynced.
 */
export async function replayLog(dir: string, path: string, entries: JournalEntry[], openFile: OpenFile = openFileHandle): Promise<void> {
  const target = join(dir, path);
  let from = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (isAppend(e)) continue;
    from = i + 1;
    if (e[1] === null) {
      await unlink(target).catch((err) => (err.code === 'ENOENT' ? undefined : Promise.reject(err)));
    } else if (e[2] === true) {
      // A trim's or copy's temp file (fsynced before its record); gone when it was renamed already.
      await rename(join(dir, e[1]), target).catch((err) => (err.code === 'ENOENT' ? undefined : Promise.reject(err)));
    } else throw new Error(`${path}: a log file is never written whole by a record`);
    break;
  }
  const appends = entries.slice(from) as LogAppend[];
  if (!appends.length) return;
  await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  const fd = await openFile(target, 'a+', 0o600);
  try {
    let end = 0;
    for (const [, text, , offset] of appends) {
      const bytes = Buffer.from(text);
      const size = (await fd.stat()).size;
      if (size < offset) throw new Error(`${path} holds ${size} bytes, fewer than the ${offset} its journal's appends follow (changed outside docs)`);
      end = offset + bytes.length;
      if (size >= end) {
        const there = Buffer.alloc(bytes.length);
        await fd.read(there, 0, bytes.length, offset);
        if (there.equals(bytes)) continue;
      }
      // Opened for appending: cut back to the offset, the write lands there.
      await fd.truncate(offset);
      await fd.writeFile(bytes);
    }
    if ((await fd.stat()).size > end) await fd.truncate(end);
    await fd.sync();
  } finally {
    await fd.close();
  }
}
