import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DocsError } from '../kernel/errors.js';
import type { ShardData } from './backend.js';
import { REFERENCED_FOLDERS, blobsOf } from './blob-refs.js';
import { FORMAT, OLD_SHARD_DIR, readFormat } from './data-format.js';
import { stageFile, syncDir } from './durable-file.js';
import { FileBackend } from './file-backend.js';
import { JOURNAL, lastWrites, readJournal } from './journal.js';
import { LOGS, isLogFile, parseLog } from './log-files.js';
import { DIR, LAYOUT, LAYOUT_VERSION, CATALOG_KEY, SEGMENTS, dirKey, dirValues, directoryFields, segmentsOf, type SegmentInfo } from './layout.js';
import type { TableSpec } from './port.js';
import { idLeftOut } from './segment-filter.js';
import {
  CHECKSUMS,
  CatalogDamage,
  MANIFEST,
  QUARANTINE,
  SHARDS,
  STRAY,
  bucketAt,
  bucketReplayed,
  bucketFile,
  bucketText,
  catalogEntry,
  checkShard,
  fileName,
  keyOf,
  parseBucket,
  parseShard,
  readBucketBytes,
  readCatalog,
  SUM_BUCKETS,
  sumBucket,
} from './shard-files.js';
import { MARKER } from './summaries.js';
import { TABLES } from './tables.js';

// `docs doctor`: checks a data directory without starting a store on it (no write unless
// --repair or --adopt): every committed shard is there and parses as a shard matching its
// checksum, every directory entry and segment the store keeps points at a row that exists, every
// organization and user a row names exists, every file a row references (src/store/blob-refs.ts)
// is there, and no such file is unreferenced.
//
// Repair never removes readable data. A shard file that parses but that the catalog does not
// list (written by another docs, restored by hand) or whose checksum differs is *adopted* once
// its shape (known tables, each row in the shard its table puts it in) and references (its
// organizations and users exist) are checked: its catalog entry is written and the store's
// directories and segment lists learn its rows. Only unreadable files (not JSON, not a shard)
// are moved into `<dir>/quarantine/<time>/`, with the blobs no row names; the report says which
// rows were lost with them. The plan is computed and shown before anything is done (the command
// asks, or needs --yes).

export interface Finding {
  /** Relative to the data directory. */
  file: string;
  problem: string;
}

/** What --repair (or --adopt) would do, before it is done. */
export interface RepairPlan {
  /** Shard files taken in after their checks (file -> rows). */
  adopt: { file: string; rows: number }[];
  /** Readable shard files that cannot be taken in, left where they are, and why. */
  refused: Finding[];
  /** Files moved into quarantine/ (unreadable shards, catalog buckets, unreferenced blobs). */
  move: string[];
  /** What is lost with them (and with committed shards found missing). */
  lost: string[];
  /** Store records corrected in place, nothing lost (a segment filter that leaves out a row is dropped); absent when none. */
  correct?: string[];
}

export interface DoctorReport {
  dir: string;
  /** The directory's format (src/store/data-format.ts). */
  format: number;
  shards: number;
  rows: number;
  blobs: number;
  /** Damage: the store would not open, or would answer 503 for what it touches. */
  damaged: Finding[];
  /** Not damage: an interrupted commit, unreferenced blobs, an older format. */
  notes: string[];
  /** With --repair or --adopt: what was (or would be) done. */
  plan?: RepairPlan;
  repaired?: { quarantine?: string; moved: string[]; lost: string[]; adopted: string[] };
}

interface Examined {
  report: DoctorReport;
  /** Log files cut short (a torn last line): file -> bytes of the whole lines before it. */
  tornLogs: Map<string, number>;
  good: Map<string, ShardData>; // key -> data of shards that passed
  readable: Map<string, { data: ShardData; text: string }>; // shard file -> a readable shard the catalog does not list or whose checksum differs
  bad: Map<string, string>; // shard file -> problem (missing, unreadable)
  badBuckets: string[];
  orphans: string[];
}

const DIR_KEY = /^dir\/(.+)\.([^./]+)\/\d+$/;
const SPECS = new Map<string, TableSpec>(TABLES.map((t) => [t.name, t]));
/**
 * Is this directory (DIR_KEY's match) one this docs keeps? A directory of an index dropped since
 * (`spaces.organization`, now answered by the organization's summary) is left on older stores,
 * no longer kept in step: its entries are not checked, and --repair leaves it alone.
 */
const kept = (m: RegExpExecArray) => {
  const spec = SPECS.get(m[1]!);
  return !!spec && directoryFields(spec).includes(m[2]!);
};

/**
 * The files a journal left by a crash writes (src/store/journal.ts), by path from the data
 * directory: each one's last text, null when deleted. Until the next open (or --repair) writes
 * them, the shard files and the catalog lag behind the commits it holds, so the directory is
 * examined as that open will leave it: new shard files missing from the catalog on disk, shards
 * changed since the last checkpoint, are no damage. A path outside the data directory is.
 */
async function journalFiles(dir: string, damage: (file: string, problem: string) => void): Promise<Map<string, string | null> | undefined> {
  const journal = await readJournal(join(dir, JOURNAL));
  if (!journal) return undefined;
  let last: ReturnType<typeof lastWrites>;
  try {
    last = lastWrites(journal.entries);
  } catch (err) {
    damage(JOURNAL, `${(err as Error).message.slice(JOURNAL.length + 2)}: a start refuses it`);
    return undefined;
  }
  const files = new Map<string, string | null>();
  for (const [path, [text, move, changes]] of last) {
    if (changes) {
      // A catalog bucket's changes, over its last whole text in the journal or its file, as a
      // replay applies them (src/store/file-backend.ts replayBucket).
      const b = bucketAt(path);
      if (b === undefined) {
        damage(JOURNAL, `a record changes entries of ${path}, not a bucket of the catalog: a start refuses it`);
        continue;
      }
      let sums: Map<string, string>;
      try {
        sums = await bucketReplayed(dir, b, text, move, changes);
      } catch (err) {
        if (err instanceof CatalogDamage) continue; // read from its file again, and named
        throw err;
      }
      files.set(path, sums.size ? bucketText(sums) : null); // a bucket left empty is deleted
      continue;
    }
    if (!move) files.set(path, text!);
    else {
      // A big commit's temp file (fsynced before its record), until it is renamed into place.
      const staged = await readFile(join(dir, text!), 'utf8').catch(() => undefined);
      if (staged !== undefined) files.set(path, staged);
    }
  }
  return files;
}

/** The catalog as `readCatalog` reads it, each bucket's text from `pending` (a journal's) when it has one. */
async function catalogWith(dir: string, pending: Map<string, string | null> | undefined): Promise<Map<number, Map<string, string>> | undefined> {
  if (!existsSync(join(dir, CHECKSUMS)) && !pending?.size) return undefined;
  const buckets = new Map<number, Map<string, string>>();
  for (let b = 0; b < SUM_BUCKETS; b++) {
    const path = `${CHECKSUMS}/${bucketFile(b)}`;
    const text = pending?.get(path);
    buckets.set(b, parseBucket(b, text === undefined ? await readBucketBytes(dir, b) : text === null ? undefined : Buffer.from(text)));
  }
  return buckets;
}

async function examine(dir: string): Promise<Examined> {
  const format = readFormat(dir); // a newer format, two formats mixed, a damaged marker: thrown, one line
  if (format.kind === 'empty') throw new DocsError('not_found', `no store in ${dir} (it has no ${SHARDS}/ folder)`);
  const folder = format.kind === 'older' ? OLD_SHARD_DIR : SHARDS;
  const shardDir = join(dir, folder);
  const report: DoctorReport = { dir, format: format.kind === 'older' ? format.format : FORMAT, shards: 0, rows: 0, blobs: 0, damaged: [], notes: [] };
  const good = new Map<string, ShardData>();
  const readable = new Map<string, { data: ShardData; text: string }>();
  const bad = new Map<string, string>();
  const badBuckets: string[] = [];
  const damage = (file: string, problem: string) => report.damaged.push({ file, problem });
  if (format.kind === 'older') report.notes.push(`format ${format.format} (written by an earlier docs): the next start migrates it to format ${FORMAT}`);
  if (format.kind === 'interrupted') report.notes.push(`a migration to format ${FORMAT} was interrupted; the next start completes it`);
  const pending = existsSync(join(dir, JOURNAL)) ? await journalFiles(dir, damage) : undefined;
  if (pending)
    report.notes.push(
      `${JOURNAL}: commits after the last checkpoint of a docs that did not close the store (${pending.size} files); examined as the next start (or --repair) writes them`,
    );
  if (existsSync(join(dir, MANIFEST)))
    report.notes.push(
      `${MANIFEST}: a commit was interrupted after its commit point; the next start (or --repair) completes it, and until then its files may show as changed`,
    );

  let catalog: Map<number, Map<string, string>> | undefined;
  try {
    catalog = await catalogWith(dir, pending);
  } catch (err) {
    if (!(err instanceof CatalogDamage)) throw err;
    damage(err.file, err.problem);
    badBuckets.push(err.file);
    catalog = undefined;
  }
  if (!catalog && !badBuckets.length) report.notes.push(`${CHECKSUMS}/: no catalog yet (written by an earlier version of docs); the next start makes it`);
  const entries = new Map<string, string>();
  for (const b of catalog?.values() ?? []) for (const [f, e] of b) entries.set(f, e);
  const present = new Set((await readdir(shardDir)).filter((f) => f.endsWith('.json')));
  const inJournal = (f: string) => pending?.get(`${folder}/${f}`);
  for (const [path, text] of pending ?? []) {
    const f = path.slice(folder.length + 1);
    if (!path.startsWith(`${folder}/`) || f.includes('/') || !f.endsWith('.json')) continue;
    if (text === null) present.delete(f);
    else present.add(f);
  }
  const files = [...present].sort();
  for (const f of entries.keys()) {
    if (!present.has(f)) bad.set(f, 'is missing (the catalog of committed shards lists it)');
  }
  for (const f of files) {
    const text = inJournal(f) ?? (await readFile(join(shardDir, f), 'utf8'));
    const entry = entries.get(f);
    const data = parseShard(text);
    if (typeof data === 'string') bad.set(f, data);
    else if (catalog && !entry) readable.set(f, { data, text });
    else if (entry && typeof checkShard(text, entry) === 'string') readable.set(f, { data, text });
    else good.set(keyOf(f), data);
  }
  for (const [f, problem] of bad) damage(`${folder}/${f}`, problem);
  for (const [f, { text }] of readable)
    damage(`${folder}/${f}`, entries.has(f) ? `${checkShard(text, entries.get(f)!)}: docs doctor --adopt checks it and takes it in` : STRAY);
  report.shards = files.length;

  // Log files (src/store/log-files.ts): not in the catalog, never strays. Each one's lines parse;
  // one the journal still appends to or replaces is examined after the next start's replay.
  const tornLogs = new Map<string, number>();
  const journaled = new Set((await readJournal(join(dir, JOURNAL)).catch(() => undefined))?.entries.map((e) => e[0]) ?? []);
  for (const f of (await readdir(join(dir, LOGS)).catch(() => [] as string[])).filter(isLogFile).sort()) {
    const rel = `${LOGS}/${f}`;
    if (journaled.has(rel)) continue;
    const parsed = parseLog(await readFile(join(dir, rel), 'utf8'));
    report.rows += parsed.rows.size;
    if (!parsed.problem) continue;
    const cut = parsed.problem.startsWith('is cut short');
    if (cut) tornLogs.set(rel, parsed.whole);
    damage(rel, cut ? `${parsed.problem} (--repair moves it to ${QUARANTINE}/ and keeps the ${parsed.rows.size} rows before it)` : parsed.problem);
  }

  // What the store's own records point at (readable shards not yet adopted count as there).
  const badKeys = new Set([...bad.keys()].map(keyOf));
  const known = new Map(good);
  for (const [f, { data }] of readable) known.set(keyOf(f), data);
  const cat = known.get(CATALOG_KEY);
  if (good.size && cat && cat[LAYOUT]?.store?.layout !== LAYOUT_VERSION)
    damage(`${folder}/catalog.json`, `says layout ${cat[LAYOUT]?.store?.layout}; this version reads layout ${LAYOUT_VERSION}`);
  if (known.size > 1 && !known.has('root') && !badKeys.has('root'))
    damage(`${folder}/root.json`, 'is missing: the owner, users and tokens are gone (a start would create a new owner)');
  const referenced = new Set<string>();
  for (const [key, data] of known) {
    for (const [table, rows] of Object.entries(data)) {
      if (table.startsWith('$')) continue;
      for (const row of Object.values(rows) as any[]) {
        if (good.has(key)) report.rows++;
        for (const b of blobsOf(SPECS.get(table), row)) referenced.add(b);
      }
    }
    const m = DIR_KEY.exec(key);
    if (m && data[DIR] && good.has(key) && kept(m)) {
      const table = m[1]!;
      for (const [value, ids] of Object.entries(data[DIR] as Record<string, Record<string, string>>)) {
        for (const [id, home] of Object.entries(ids)) {
          if (badKeys.has(home)) continue; // reported with the file; --repair drops the entry
          const target = known.get(home);
          if (!target?.[table]?.[id])
            damage(`${folder}/${fileName(key)}`, `lists ${table} ${id} (${m[2]} ${JSON.stringify(value)}) in shard ${home}, which does not hold it`);
        }
      }
    }
    for (const seg of segmentsOf(data)) {
      if (good.has(key) && !known.has(seg.id) && !badKeys.has(seg.id)) damage(`${folder}/${fileName(key)}`, `lists segment ${seg.id}, which does not exist`);
      const out = good.has(key) ? idLeftOut(seg.filter, known.get(seg.id)) : undefined;
      if (out !== undefined)
        damage(
          `${folder}/${fileName(key)}`,
          `the filter of segment ${seg.id} leaves out row ${out}, which a lookup would not find (--repair drops the filter)`,
        );
    }
  }

  // Rows naming an organization or a user (never deleted, so a name that resolves to nothing is
  // damage): skipped when the shard that would hold it is itself reported.
  const { orgs, users } = namesOf(known);
  for (const [key, data] of good) {
    for (const problem of referenceProblems(data, orgs, users, badKeys)) damage(`${folder}/${fileName(key)}`, problem);
  }

  // Files beside the store: those rows reference must be there; the others are orphans.
  const orphans: string[] = [];
  const found = new Set<string>();
  for (const top of REFERENCED_FOLDERS) {
    for (const sub of await readdir(join(dir, top)).catch(() => [] as string[])) {
      for (const f of await readdir(join(dir, top, sub)).catch(() => [] as string[])) {
        if (f.endsWith('.tmp')) continue;
        const rel = `${top}/${sub}/${f}`;
        found.add(rel);
        if (!referenced.has(rel)) orphans.push(rel);
      }
    }
  }
  report.blobs = found.size;
  for (const rel of referenced) if (!found.has(rel)) damage(rel, 'is missing (a row references it)');
  if (orphans.length) {
    let bytes = 0;
    for (const o of orphans) bytes += (await stat(join(dir, o))).size;
    report.notes.push(
      `${orphans.length} file(s) no row references (${bytes} bytes; left by a write that failed or a crash before its commit; --repair moves them to ${QUARANTINE}/)`,
    );
  }
  return { report, tornLogs, good, readable, bad, badBuckets, orphans };
}

function namesOf(shards: Map<string, ShardData>): { orgs: Set<string>; users: Set<string> } {
  const orgs = new Set<string>();
  const users = new Set<string>();
  for (const data of shards.values()) {
    for (const id of Object.keys(data.organizations ?? {})) orgs.add(id);
    for (const id of Object.keys(data.users ?? {})) users.add(id);
  }
  return { orgs, users };
}

function referenceProblems(data: ShardData, orgs: Set<string>, users: Set<string>, badKeys: Set<string>): string[] {
  const out: string[] = [];
  for (const [table, rows] of Object.entries(data)) {
    if (table.startsWith('$')) continue;
    for (const [id, row] of Object.entries(rows) as [string, any][]) {
      const org = table === 'organizations' ? undefined : row?.organization;
      if (typeof org === 'string' && !orgs.has(org) && !badKeys.has(`org/${org}`))
        out.push(`holds ${table} ${id} of organization ${org}, which does not exist`);
      const user = table === 'users' ? undefined : row?.user;
      if (typeof user === 'string' && !users.has(user) && !badKeys.has('root')) out.push(`holds ${table} ${id} of user ${user}, who does not exist`);
    }
  }
  return out;
}

/** Why a readable shard cannot be taken in as `key`, or undefined when it can. */
function adoptionProblem(key: string, data: ShardData, orgs: Set<string>, users: Set<string>): string | undefined {
  for (const [table, rows] of Object.entries(data)) {
    if (table === DIR) {
      if (!DIR_KEY.test(key)) return `holds directory entries but is not a directory shard`;
      continue;
    }
    if (table === SEGMENTS || (table === LAYOUT && key === CATALOG_KEY)) continue;
    const spec = SPECS.get(table);
    if (!spec) return `holds table ${JSON.stringify(table)}, unknown to this docs (written by a newer one?)`;
    for (const [id, row] of Object.entries(rows) as [string, any][]) {
      if (typeof row !== 'object' || row === null || row.id !== id) return `holds ${table} ${id}, which is not a row with that id`;
      let home: string;
      try {
        home = spec.shard(row);
      } catch {
        return `holds ${table} ${id}, a row without the fields that say where it belongs`;
      }
      if (spec.immutable ? !key.startsWith(`${home}/`) || !/^\d+$/.test(key.slice(home.length + 1)) : key !== home) {
        return `holds ${table} ${id}, which belongs in shard ${home} (a shard of another format?)`;
      }
    }
  }
  const refs = referenceProblems(data, orgs, users, new Set());
  return refs[0];
}

function planOf(ex: Examined, opts: { repair?: boolean }): RepairPlan {
  const plan: RepairPlan = { adopt: [], refused: [], move: [], lost: [] };
  const known = new Map(ex.good);
  for (const [f, { data }] of ex.readable) known.set(keyOf(f), data);
  const { orgs, users } = namesOf(known);
  for (const [f, { data }] of ex.readable) {
    const problem = adoptionProblem(keyOf(f), data, orgs, users);
    if (problem) plan.refused.push({ file: `${SHARDS}/${f}`, problem });
    else
      plan.adopt.push({
        file: `${SHARDS}/${f}`,
        rows: Object.entries(data)
          .filter(([t]) => !t.startsWith('$'))
          .reduce((n, [, rows]) => n + Object.keys(rows).length, 0),
      });
  }
  if (!opts.repair) return plan;
  for (const f of ex.tornLogs.keys()) (plan.correct ??= []).push(`${f}: its last line, cut short, is moved to ${QUARANTINE}/ (the rows before it stay)`);
  for (const [key, data] of ex.good) {
    for (const seg of segmentsOf(data)) {
      const out = idLeftOut(seg.filter, ex.good.get(seg.id));
      if (out !== undefined) (plan.correct ??= []).push(`${SHARDS}/${fileName(key)}: the filter of segment ${seg.id} is dropped (it leaves out row ${out})`);
    }
  }
  const badKeys = new Set([...ex.bad.keys()].map(keyOf));
  // What each lost shard held, as the directories say (the shard itself cannot be read).
  const held = new Map<string, string[]>();
  for (const [key, data] of ex.good) {
    const m = DIR_KEY.exec(key);
    if (m?.[2] !== 'id' || !data[DIR]) continue;
    for (const ids of Object.values(data[DIR] as Record<string, Record<string, string>>)) {
      for (const [id, home] of Object.entries(ids)) if (badKeys.has(home)) (held.get(home) ?? held.set(home, []).get(home)!).push(`${m[1]} ${id}`);
    }
  }
  for (const [file, problem] of ex.bad) {
    const key = keyOf(file);
    if (!problem.startsWith('is missing')) plan.move.push(`${SHARDS}/${file}`);
    const rows = held.get(key);
    const what =
      key === 'root'
        ? 'the owner, users, tokens and store secrets (the next start creates a new owner and organization)'
        : rows?.length
          ? `${rows.length} row(s): ${rows.slice(0, 20).join(', ')}${rows.length > 20 ? ', ...' : ''}`
          : 'its rows (no directory lists them: rows found by their shard, e.g. an organization or a space and what it holds)';
    plan.lost.push(`shard ${key} (${SHARDS}/${file} ${problem}): ${what}`);
  }
  for (const b of ex.badBuckets) {
    plan.move.push(b);
    plan.lost.push(`${b}: rebuilt from the shard files it lists (their checksums cannot be verified)`);
  }
  plan.move.push(...ex.orphans);
  return plan;
}

const isEmpty = (p: RepairPlan) => !p.adopt.length && !p.move.length && !p.lost.length && !p.correct?.length;

export interface DoctorOptions {
  /** Quarantine unreadable files and unreferenced blobs; adopt readable shards. */
  repair?: boolean;
  /** Only adopt readable shards the catalog does not list (or whose checksum differs). */
  adopt?: boolean;
  /** Called with the plan before anything is changed; false: nothing is changed. */
  confirm?: (plan: RepairPlan, report: DoctorReport) => Promise<boolean>;
}

/** Checks `dir` (held by the caller); with `repair`/`adopt`, and `confirm`, acts on what it found. */
export async function doctor(dir: string, opts: DoctorOptions = {}): Promise<DoctorReport> {
  const first = await examine(dir);
  if (!opts.repair && !opts.adopt) return first.report;
  const shown = planOf(first, opts);
  if (isEmpty(shown)) {
    // Nothing to repair, but commits a journal holds (or a manifest of an older docs): written as
    // any open writes them, which needs no consent.
    if (!existsSync(join(dir, JOURNAL)) && !existsSync(join(dir, MANIFEST))) return { ...first.report, plan: shown };
    await new FileBackend(dir).prepare();
    return { ...(await examine(dir)).report, plan: shown };
  }
  // Asked before anything is written, the format migration included.
  if (opts.confirm && !(await opts.confirm(shown, first.report))) return { ...first.report, plan: shown };
  // What any open does first (a format migration, an interrupted commit completed): not repair.
  await new FileBackend(dir).prepare();
  const ex = await examine(dir);
  const plan = planOf(ex, opts);
  if (isEmpty(plan)) return { ...ex.report, plan };
  // Completing an interrupted commit only makes the plan smaller; anything new was not agreed to.
  const agreed = new Set([...shown.move, ...shown.adopt.map((a) => a.file)]);
  const unforeseen = [...plan.move, ...plan.adopt.map((a) => a.file)].filter((f) => !agreed.has(f));
  if (unforeseen.length) throw new DocsError('conflict', `${dir} changed while it was checked (${unforeseen[0]}): nothing was moved; run docs doctor again`);

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const qdir = join(dir, QUARANTINE, stamp);
  const moved: string[] = [];
  const moveAside = async (rel: string) => {
    await mkdir(join(qdir, rel, '..'), { recursive: true, mode: 0o700 });
    await rename(join(dir, rel), join(qdir, rel));
    moved.push(rel);
  };
  for (const rel of plan.move) if (!ex.badBuckets.includes(rel) && existsSync(join(dir, rel))) await moveAside(rel);
  // A log cut short: the torn end goes to quarantine, the whole lines stay (written durably, in place).
  for (const [rel, whole] of opts.repair ? ex.tornLogs : []) {
    const bytes = await readFile(join(dir, rel));
    await mkdir(join(qdir, LOGS), { recursive: true, mode: 0o700 });
    await rename(await stageFile(join(qdir, `${rel}.torn`), bytes.subarray(whole)), join(qdir, `${rel}.torn`));
    await rename(await stageFile(join(dir, rel), bytes.subarray(0, whole)), join(dir, rel));
    await syncDir(join(dir, LOGS));
    moved.push(`${rel} (its torn end)`);
  }

  // The catalog: without the lost shards, with the adopted ones; a damaged bucket is moved aside
  // and rebuilt from the files it would list (their checksums cannot be verified: said so).
  const adopted = new Set(plan.adopt.map((a) => a.file.slice(SHARDS.length + 1)));
  const catalog = (await readCatalog(dir).catch(() => undefined)) ?? new Map<number, Map<string, string>>();
  const changed = new Set<number>();
  for (const b of opts.repair ? ex.badBuckets : []) {
    await moveAside(b);
    const n = Number(b.slice(CHECKSUMS.length + 1, CHECKSUMS.length + 3));
    const rebuilt = new Map<string, string>();
    for (const f of (await readdir(join(dir, SHARDS))).filter((f) => f.endsWith('.json') && sumBucket(f) === n)) {
      const text = await readFile(join(dir, SHARDS, f), 'utf8');
      if (typeof parseShard(text) !== 'string') rebuilt.set(f, catalogEntry(text));
    }
    catalog.set(n, rebuilt);
    changed.add(n);
  }
  for (const f of opts.repair ? ex.bad.keys() : []) {
    const n = sumBucket(f);
    if (catalog.get(n)?.delete(f)) changed.add(n);
  }
  for (const f of adopted) {
    const n = sumBucket(f);
    if (!catalog.has(n)) catalog.set(n, new Map());
    catalog.get(n)!.set(f, catalogEntry(ex.readable.get(f)!.text));
    changed.add(n);
  }
  for (const n of changed) {
    const sums = catalog.get(n)!;
    const target = join(dir, CHECKSUMS, bucketFile(n));
    await mkdir(join(dir, CHECKSUMS), { recursive: true, mode: 0o700 });
    await rename(await stageFile(target, bucketText(sums)), target);
  }
  await syncDir(join(dir, SHARDS));
  await syncDir(join(dir, CHECKSUMS)).catch(() => {});

  // The store now opens: the directories and segment lists follow what was moved and adopted.
  const backend = new FileBackend(dir);
  await backend.open();
  const now = new Map(ex.good);
  for (const f of adopted) now.set(keyOf(f), ex.readable.get(f)!.data);
  const lostKeys = new Set([...(opts.repair ? ex.bad.keys() : [])].map(keyOf));
  const changes = new Map<string, ShardData>();
  const edit = (key: string) => {
    let d = changes.get(key);
    if (!d) changes.set(key, (d = structuredClone(now.get(key) ?? {})));
    return d;
  };
  // Entries and segments pointing at what was lost or at nothing (--repair only).
  for (const [key, data] of opts.repair ? now : new Map<string, ShardData>()) {
    const m = DIR_KEY.exec(key);
    if (m && data[DIR] && kept(m)) {
      const dirTable: Record<string, Record<string, string>> = {};
      for (const [value, ids] of Object.entries(data[DIR] as Record<string, Record<string, string>>)) {
        const kept = Object.fromEntries(Object.entries(ids).filter(([id, home]) => !lostKeys.has(home) && now.get(home)?.[m[1]!]?.[id]));
        if (Object.keys(kept).length) dirTable[value] = kept;
      }
      if (JSON.stringify(dirTable) !== JSON.stringify(data[DIR])) edit(key)[DIR] = dirTable;
    }
    const segs = data[SEGMENTS] as Record<string, SegmentInfo> | undefined;
    if (segs && Object.keys(segs).some((id) => !now.has(id))) edit(key)[SEGMENTS] = Object.fromEntries(Object.entries(segs).filter(([id]) => now.has(id)));
  }
  // A filter that leaves out a row of its segment goes (the segment is then read by every lookup):
  // with --repair, and with --adopt for a segment adopted in place of the one its filter was made of.
  const groupOf = (segment: string) => segment.slice(0, Math.max(0, segment.lastIndexOf('/')));
  for (const key of new Set(opts.repair ? now.keys() : [...adopted].map((f) => groupOf(keyOf(f))))) {
    const data = changes.get(key) ?? now.get(key);
    for (const [id, seg] of Object.entries((data?.[SEGMENTS] ?? {}) as Record<string, SegmentInfo>)) {
      if (now.has(id) && idLeftOut(seg.filter, now.get(id)) !== undefined) {
        const { filter: _dropped, ...kept } = seg;
        (edit(key)[SEGMENTS] as Record<string, SegmentInfo>)[id] = kept;
      }
    }
  }
  for (const f of adopted) {
    const key = keyOf(f);
    for (const [table, rows] of Object.entries(now.get(key)!)) {
      const spec = SPECS.get(table);
      if (!spec) continue;
      if (spec.immutable) {
        const group = spec.shard(Object.values(rows)[0]);
        const segs = segmentsOf(changes.get(group) ?? now.get(group));
        if (!segs.some((s) => s.id === key)) {
          const seq = Math.max(0, ...segs.map((s) => s.seq)) + 1;
          (edit(group)[SEGMENTS] ??= {})[key] = { id: key, seq, rows: Object.keys(rows).length };
        }
        continue;
      }
      for (const row of Object.values(rows) as any[]) {
        for (const field of directoryFields(spec)) {
          for (const v of dirValues(row, field)) {
            const dk = dirKey(table, field, v);
            const cur = (changes.get(dk) ?? now.get(dk))?.[DIR]?.[v]?.[row.id];
            if (cur !== key) ((edit(dk)[DIR] ??= {})[v] ??= {})[row.id] = key;
          }
        }
      }
    }
  }
  // Summaries (src/store/summaries.ts) hold copies of rows: when rows were lost or adopted, the
  // marker goes, so the next open builds every summary again from the rows that are there.
  if ((lostKeys.size || adopted.size) && (now.get('root')?.meta as Record<string, unknown> | undefined)?.[MARKER]) {
    delete (edit('root').meta as Record<string, unknown>)[MARKER];
  }
  const commit = new Map<string, ShardData | null>();
  for (const [key, data] of changes) {
    for (const [t, rows] of Object.entries(data)) if (!Object.keys(rows).length) delete data[t];
    commit.set(key, Object.keys(data).length ? data : null);
  }
  if (commit.size) await backend.commit(commit);
  await backend.close();
  const after = await examine(dir);
  return {
    ...after.report,
    plan,
    repaired: { ...(moved.length ? { quarantine: `${QUARANTINE}/${stamp}` } : {}), moved, lost: plan.lost, adopted: plan.adopt.map((a) => a.file) },
  };
}
