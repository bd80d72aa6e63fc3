import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DocsError } from '../kernel/errors.js';
import type { ShardData } from './backend.js';
import { stageFile, syncDir } from './durable-file.js';
import { FileBackend } from './file-backend.js';
import { DIR, LAYOUT, LAYOUT_VERSION, CATALOG_KEY, segmentsOf } from './layout.js';
import { CHECKSUMS, CatalogDamage, MANIFEST, QUARANTINE, SHARDS, SUM_BUCKETS, bucketFile, catalogEntry, checkShard, fileName, keyOf, parseShard, readCatalog, sumBucket } from './shard-files.js';

// `docs doctor`: checks a data directory without starting a store on it (no write unless
// --repair): every committed shard is there and parses as a shard matching its checksum, every
// directory entry and segment the store keeps points at a row that exists, every organization
// and user a row names exists, every file a row
// names is there, and no blob is unreferenced. `--repair` moves damaged shard files into
// `<dir>/quarantine/<time>/`, drops them from the catalog and drops the directory entries that
// pointed into them, and says which rows were lost.

export interface Finding {
  /** Relative to the data directory. */
  file: string;
  problem: string;
}

export interface DoctorReport {
  dir: string;
  shards: number;
  rows: number;
  blobs: number;
  /** Damage: the store would not open, or would answer 503 for what it touches. */
  damaged: Finding[];
  /** Not damage: an interrupted commit, unreferenced blobs. */
  notes: string[];
  /** With --repair: what was moved aside and what was lost with it. */
  repaired?: { quarantine: string; moved: string[]; lost: string[] };
}

interface Examined {
  report: DoctorReport;
  good: Map<string, ShardData>; // key -> data of shards that passed
  bad: Map<string, string>; // shard file -> problem (missing, stray, damaged)
  badBuckets: string[];
  orphans: string[];
}

const DIR_KEY = /^dir\/(.+)\.([^./]+)\/\d+$/;

async function examine(dir: string): Promise<Examined> {
  const shardDir = join(dir, SHARDS);
  if (!existsSync(shardDir)) throw new DocsError('not_found', `no store in ${dir} (it has no ${SHARDS}/ folder)`);
  const report: DoctorReport = { dir, shards: 0, rows: 0, blobs: 0, damaged: [], notes: [] };
  const good = new Map<string, ShardData>();
  const bad = new Map<string, string>();
  const badBuckets: string[] = [];
  const damage = (file: string, problem: string) => report.damaged.push({ file, problem });
  if (existsSync(join(dir, MANIFEST))) report.notes.push(`${MANIFEST}: a commit was interrupted after its commit point; the next start (or --repair) completes it, and until then its files may show as changed`);

  let catalog: Map<number, Map<string, string>> | undefined;
  try {
    catalog = await readCatalog(dir);
  } catch (err) {
    if (!(err instanceof CatalogDamage)) throw err;
    damage(err.file, err.problem);
    badBuckets.push(err.file);
    catalog = undefined;
  }
  if (!catalog && !badBuckets.length) report.notes.push(`${CHECKSUMS}/: no catalog yet (written by an earlier version of docs); the next start makes it`);
  const entries = new Map<string, string>();
  for (const b of catalog?.values() ?? []) for (const [f, e] of b) entries.set(f, e);
  const files = (await readdir(shardDir)).filter((f) => f.endsWith('.json')).sort();
  for (const f of entries.keys()) {
    if (!files.includes(f)) bad.set(f, 'is missing (the catalog of committed shards lists it)');
  }
  for (const f of files) {
    const text = await readFile(join(shardDir, f), 'utf8');
    const entry = entries.get(f);
    const data = entry ? checkShard(text, entry) : parseShard(text);
    if (typeof data === 'string') bad.set(f, data);
    else if (catalog && !entry) bad.set(f, 'is not in the catalog of committed shards (put there outside docs)');
    else good.set(keyOf(f), data);
  }
  for (const [f, problem] of bad) damage(`${SHARDS}/${f}`, problem);
  report.shards = files.length;

  // What the store's own records point at.
  const badKeys = new Set([...bad.keys()].map(keyOf));
  const cat = good.get(CATALOG_KEY);
  if (good.size && cat && cat[LAYOUT]?.store?.layout !== LAYOUT_VERSION) damage(`${SHARDS}/catalog.json`, `says layout ${cat[LAYOUT]?.store?.layout}; this version reads layout ${LAYOUT_VERSION}`);
  if (good.size > 1 && !good.has('root') && !badKeys.has('root')) damage(`${SHARDS}/root.json`, 'is missing: the owner, users and tokens are gone (a start would create a new owner)');
  const shas = new Set<string>();
  for (const [key, data] of good) {
    for (const [table, rows] of Object.entries(data)) {
      if (table.startsWith('$')) continue;
      for (const row of Object.values(rows) as any[]) {
        report.rows++;
        if (typeof row?.sha === 'string' && /^[0-9a-f]{64}$/.test(row.sha)) shas.add(row.sha);
      }
    }
    const m = DIR_KEY.exec(key);
    if (m && data[DIR]) {
      const table = m[1]!;
      for (const [value, ids] of Object.entries(data[DIR] as Record<string, Record<string, string>>)) {
        for (const [id, home] of Object.entries(ids)) {
          if (badKeys.has(home)) continue; // reported with the file; --repair drops the entry
          const target = good.get(home);
          if (!target?.[table]?.[id]) damage(`${SHARDS}/${fileName(key)}`, `lists ${table} ${id} (${m[2]} ${JSON.stringify(value)}) in shard ${home}, which does not hold it`);
        }
      }
    }
    for (const seg of segmentsOf(data)) {
      if (!good.has(seg.id) && !badKeys.has(seg.id)) damage(`${SHARDS}/${fileName(key)}`, `lists segment ${seg.id}, which does not exist`);
    }
  }

  // Rows naming an organization or a user (never deleted, so a name that resolves to nothing is
  // damage): skipped when the shard that would hold it is itself reported.
  const orgs = new Set<string>();
  const users = new Set<string>();
  for (const data of good.values()) {
    for (const id of Object.keys(data.organizations ?? {})) orgs.add(id);
    for (const id of Object.keys(data.users ?? {})) users.add(id);
  }
  for (const [key, data] of good) {
    for (const [table, rows] of Object.entries(data)) {
      if (table.startsWith('$')) continue;
      for (const [id, row] of Object.entries(rows) as [string, any][]) {
        const org = table === 'organizations' ? undefined : row?.organization;
        if (typeof org === 'string' && !orgs.has(org) && !badKeys.has(`org/${org}`)) damage(`${SHARDS}/${fileName(key)}`, `holds ${table} ${id} of organization ${org}, which does not exist`);
        const user = table === 'users' ? undefined : row?.user;
        if (typeof user === 'string' && !users.has(user) && !badKeys.has('root')) damage(`${SHARDS}/${fileName(key)}`, `holds ${table} ${id} of user ${user}, who does not exist`);
      }
    }
  }

  // Blobs: files/<2 hex>/<sha>.
  const orphans: string[] = [];
  const filesDir = join(dir, 'files');
  const present = new Set<string>();
  for (const sub of await readdir(filesDir).catch(() => [] as string[])) {
    for (const f of await readdir(join(filesDir, sub)).catch(() => [] as string[])) {
      if (f.endsWith('.tmp')) continue;
      present.add(f);
      if (!shas.has(f)) orphans.push(`files/${sub}/${f}`);
    }
  }
  report.blobs = present.size;
  for (const sha of shas) if (!present.has(sha)) damage(`files/${sha.slice(0, 2)}/${sha}`, 'is missing (a file row names it)');
  if (orphans.length) {
    let bytes = 0;
    for (const o of orphans) bytes += (await stat(join(dir, o))).size;
    report.notes.push(`${orphans.length} blob(s) no row names (${bytes} bytes; left by a write that failed or a crash before its commit; --repair moves them to ${QUARANTINE}/)`);
  }
  return { report, good, bad, badBuckets, orphans };
}

/** Checks `dir` (held by the caller), and with `repair` quarantines what is damaged. */
export async function doctor(dir: string, opts: { repair?: boolean } = {}): Promise<DoctorReport> {
  if (opts.repair) await new FileBackend(dir).recover(); // an interrupted commit first: it is not damage
  const ex = await examine(dir);
  if (!opts.repair || (!ex.report.damaged.length && !ex.orphans.length)) return ex.report;

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const qdir = join(dir, QUARANTINE, stamp);
  await mkdir(join(qdir, SHARDS), { recursive: true, mode: 0o700 });
  await mkdir(join(qdir, CHECKSUMS), { recursive: true, mode: 0o700 });
  const moved: string[] = [];
  const lost: string[] = [];
  const badKeys = new Set([...ex.bad.keys()].map(keyOf));

  // What each damaged shard held, as its directories say (the shard itself cannot be trusted).
  const held = new Map<string, string[]>();
  for (const [key, data] of ex.good) {
    const m = DIR_KEY.exec(key);
    if (!m || m[2] !== 'id' || !data[DIR]) continue;
    for (const ids of Object.values(data[DIR] as Record<string, Record<string, string>>)) {
      for (const [id, home] of Object.entries(ids)) if (badKeys.has(home)) (held.get(home) ?? held.set(home, []).get(home)!).push(`${m[1]} ${id}`);
    }
  }
  for (const [file, problem] of ex.bad) {
    const key = keyOf(file);
    if (existsSync(join(dir, SHARDS, file))) {
      await rename(join(dir, SHARDS, file), join(qdir, SHARDS, file));
      moved.push(`${SHARDS}/${file}`);
    }
    const rows = held.get(key);
    const what =
      key === 'root' ? 'the owner, users, tokens and store secrets (the next start creates a new owner and organization)'
      : rows?.length ? `${rows.length} row(s): ${rows.slice(0, 20).join(', ')}${rows.length > 20 ? ', ...' : ''}`
      : 'its rows (no directory lists them: rows found by their shard, e.g. an organization or a space and what it holds)';
    lost.push(`shard ${key} (${SHARDS}/${file} ${problem}): ${what}`);
  }
  for (const o of ex.orphans) {
    await mkdir(join(qdir, 'files'), { recursive: true, mode: 0o700 });
    await rename(join(dir, o), join(qdir, 'files', o.split('/').pop()!));
    moved.push(o);
  }

  // The catalog, without the quarantined shards; a damaged bucket is moved aside and rebuilt
  // from the files it would list (their checksums cannot be verified: said so).
  const catalog = (await readCatalog(dir).catch(() => undefined)) ?? new Map<number, Map<string, string>>();
  for (const b of ex.badBuckets) {
    await rename(join(dir, b), join(qdir, b));
    moved.push(b);
    const n = Number(b.slice(CHECKSUMS.length + 1, CHECKSUMS.length + 3));
    const rebuilt = new Map<string, string>();
    for (const f of (await readdir(join(dir, SHARDS))).filter((f) => f.endsWith('.json') && sumBucket(f) === n)) {
      const text = await readFile(join(dir, SHARDS, f), 'utf8');
      if (typeof parseShard(text) !== 'string') rebuilt.set(f, catalogEntry(text));
    }
    catalog.set(n, rebuilt);
    lost.push(`${b}: rebuilt from the ${rebuilt.size} shard file(s) it lists (their checksums could not be verified)`);
  }
  for (let n = 0; n < SUM_BUCKETS; n++) {
    const sums = catalog.get(n);
    if (!sums) continue;
    let changed = ex.badBuckets.includes(`${CHECKSUMS}/${bucketFile(n)}`);
    for (const f of ex.bad.keys()) if (sums.delete(f)) changed = true;
    if (!changed) continue;
    const target = join(dir, CHECKSUMS, bucketFile(n));
    await mkdir(join(dir, CHECKSUMS), { recursive: true, mode: 0o700 });
    await rename(await stageFile(target, JSON.stringify(Object.fromEntries(sums))), target);
  }
  await syncDir(join(dir, SHARDS));
  await syncDir(join(dir, CHECKSUMS)).catch(() => {});

  // The store now opens: drop the directory entries and segments that pointed into what was moved.
  const backend = new FileBackend(dir);
  await backend.open();
  const changes = new Map<string, ShardData | null>();
  for (const [key, data] of ex.good) {
    let next: ShardData | undefined;
    const m = DIR_KEY.exec(key);
    if (m && data[DIR]) {
      const dirTable: Record<string, Record<string, string>> = {};
      for (const [value, ids] of Object.entries(data[DIR] as Record<string, Record<string, string>>)) {
        const kept = Object.fromEntries(Object.entries(ids).filter(([id, home]) => !badKeys.has(home) && ex.good.get(home)?.[m[1]!]?.[id]));
        if (Object.keys(kept).length) dirTable[value] = kept;
      }
      if (JSON.stringify(dirTable) !== JSON.stringify(data[DIR])) next = { ...data, [DIR]: dirTable };
    }
    const segs = data.$segments as Record<string, unknown> | undefined;
    if (segs && Object.keys(segs).some((id) => !ex.good.has(id))) {
      next = { ...(next ?? data), $segments: Object.fromEntries(Object.entries(segs).filter(([id]) => ex.good.has(id))) };
    }
    if (next) {
      for (const [t, rows] of Object.entries(next)) if (!Object.keys(rows).length) delete next[t];
      changes.set(key, Object.keys(next).length ? next : null);
    }
  }
  if (changes.size) await backend.commit(changes);
  await backend.close();
  const after = await examine(dir);
  return { ...after.report, repaired: { quarantine: `${QUARANTINE}/${stamp}`, moved, lost } };
}
