import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backupHeld, restoreArchive } from '../../src/store/backup.js';
import { doctor } from '../../src/store/doctor.js';
import { FileBackend } from '../../src/store/file-backend.js';
import { JOURNAL } from '../../src/store/journal.js';
import { keptLines, LogIndex, logLines, parseLog } from '../../src/store/log-files.js';
import { ShardStore } from '../../src/store/shard-store.js';
import { TABLES } from '../../src/store/tables.js';
import { random, SEED } from '../helpers/sample.js';
import { spawnServe } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

// The log files of a data directory (src/store/log-files.ts): a commit's rows of a log table are
// lines of its journal record (the commit point), appended to the log's file at the checkpoint.
// A crash is stood in for by `discard` (the journal stays, nothing more is written), and the
// moments between the steps of a checkpoint by writing what the step would have written.

const LOG = 'log/audit/o1';
const FILE = 'logs/log__audit__o1.jsonl';
const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
const row = (n: number) => ({ id: `o1:${String(n).padStart(36, '0')}`, organization: 'o1', occurredAt: at(n), n });
const append = (b: FileBackend, ...ns: number[]) =>
  b.commit(new Map(), new Map(), { append: ns.map((n) => ({ log: LOG, table: 'auditLog', row: row(n) })), remove: [] });
const opened = async (dir: string) => {
  const b = new FileBackend(dir);
  await b.open();
  return b;
};
/** A new directory holding a whole store (its catalog and root shard), as backups and doctor expect. */
const storeDir = async () => {
  const dir = tempDir();
  await (await ShardStore.open(new FileBackend(dir), TABLES)).close();
  return dir;
};
/** The log's rows as loaded: their `n`, in the order the load gives them. */
const rowsOf = async (b: FileBackend) => Object.values((await b.load([LOG])).get(LOG)!.data.auditLog ?? {}).map((r: any) => r.n);
/** Appended lines in the file (a row written twice would show twice). */
const linesIn = (dir: string) =>
  readFileSync(join(dir, FILE), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{"i"')).length;

describe('log files of a data directory', () => {
  it('a commit appends its rows in its journal record: a crash before the checkpoint loses none, the replay writes each once', async () => {
    const dir = tempDir();
    const b = await opened(dir);
    await append(b, 3, 1);
    await append(b, 2);
    // Committed, not in the file yet: its lines are in the journal and served from memory.
    expect(existsSync(join(dir, FILE))).toBe(false);
    expect(readFileSync(join(dir, JOURNAL), 'utf8')).toContain(row(3).id);
    expect(await rowsOf(b)).toEqual([1, 2, 3]); // by logOrder, not as appended
    expect(await b.keys()).toContain(LOG);
    await b.discard(); // the crash
    const again = await opened(dir);
    expect(await rowsOf(again)).toEqual([1, 2, 3]);
    expect(linesIn(dir)).toBe(3);
    expect(existsSync(join(dir, JOURNAL))).toBe(false);
    await again.close();
  });

  it('a crash after the checkpoint appended the lines, before the journal went, or half way through the append: no row twice, none lost', async () => {
    const dir = tempDir();
    const b = await opened(dir);
    await append(b, 1, 2);
    await b.close();
    const c = await opened(dir);
    await append(c, 3, 4);
    const journal = readFileSync(join(dir, JOURNAL));
    // The checkpoint at close appends the lines and removes the journal: the crash came between.
    await c.close();
    writeFileSync(join(dir, JOURNAL), journal);
    const d = await opened(dir);
    expect(await rowsOf(d)).toEqual([1, 2, 3, 4]);
    expect(linesIn(dir)).toBe(4);
    // Half of the checkpoint's append written when the crash came.
    await append(d, 5, 6);
    appendFileSync(join(dir, FILE), logLines([5, 6].map((n) => ({ table: 'auditLog', row: row(n) }))).slice(0, 100));
    await d.discard();
    const e = await opened(dir);
    expect(await rowsOf(e)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(linesIn(dir)).toBe(6);
    expect(readFileSync(join(dir, FILE), 'utf8').endsWith('\n')).toBe(true);
    await e.close();
  });

  it('a write never reads the log; a load does, and names a damaged file', async () => {
    const dir = tempDir();
    const b = await opened(dir);
    await append(b, 1);
    await b.close();
    writeFileSync(join(dir, FILE), `${readFileSync(join(dir, FILE), 'utf8')}not a line\n`);
    const c = await opened(dir);
    await append(c, 2); // appends without reading what is there
    await expect(c.load([LOG])).rejects.toThrow(/logs\/log__audit__o1\.jsonl is damaged: line 2/);
    await c.discard();
  });

  it('trims to the newest rows at or after a time, by lines of removal or by a rewrite, and a crash after keeps the trim', async () => {
    const dir = tempDir();
    const b = await opened(dir);
    await append(b, ...Array.from({ length: 10 }, (_, i) => i + 1));
    // One row of ten removed: a line appended, the file not rewritten.
    expect(await b.trimLog(LOG, 9, '')).toMatchObject({ count: 9, oldest: at(2) });
    expect(await rowsOf(b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await b.close();
    expect(readFileSync(join(dir, FILE), 'utf8')).toContain(`{"x":"${row(1).id}"}`);
    const c = await opened(dir);
    await append(c, 11);
    // Most rows removed: written again whole, through a temp file the journal names.
    expect(await c.trimLog(LOG, 4, '')).toMatchObject({ count: 4, oldest: at(8) });
    expect(linesIn(dir)).toBe(4); // 8 to 11: the rewrite holds 11 too, committed but not appended yet
    expect(await c.trimLog(LOG, 10, at(10))).toMatchObject({ count: 2, oldest: at(10) });
    expect(await c.trimLog(LOG, 10, at(10))).toEqual({ count: 2, oldest: at(10), removed: 0 }); // nothing to remove
    await append(c, 12, 13);
    // The index a trim keeps follows the commits since: 12 and 13 are counted, read from nowhere.
    expect(await c.trimLog(LOG, 3, '')).toMatchObject({ count: 3, oldest: at(11) });
    await c.discard(); // the crash: the journal holds the trims and the appends around them
    const d = await opened(dir);
    expect(await rowsOf(d)).toEqual([11, 12, 13]);
    expect(linesIn(dir)).toBe(4); // 10 to 13, and a line removing 10
    expect(readdirSync(join(dir, 'logs')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(await d.trimLog(LOG, 0, '')).toMatchObject({ count: 0, oldest: '' });
    expect(await rowsOf(d)).toEqual([]);
    await d.close();
  });

  it('trims between commits: a row committed while a trim runs is kept', async () => {
    const dir = tempDir();
    const b = await opened(dir);
    await append(b, ...Array.from({ length: 20 }, (_, i) => i + 1));
    await Promise.all([b.trimLog(LOG, 2, ''), append(b, 21), b.trimLog(LOG, 2, ''), append(b, 22)]);
    expect((await rowsOf(b)).slice(-2)).toEqual([21, 22]);
    await b.close();
    const c = await opened(dir);
    expect((await rowsOf(c)).slice(-2)).toEqual([21, 22]);
    await c.close();
  });

  it('a backup holds the log as it was at its snapshot, and restores it', async () => {
    const dir = await storeDir();
    const b = await opened(dir);
    await append(b, 1, 2, 3);
    const snap = join(tempDir(), 'snap');
    await b.snapshot(snap);
    // The log file is appended in place at checkpoints: the snapshot's copy must not follow it.
    await append(b, 4);
    await b.close();
    expect(linesIn(snap)).toBe(3);
    const out = join(tempDir(), 'backup.tar.gz');
    await backupHeld(dir, out);
    const restored = join(tempDir(), 'restored');
    await restoreArchive(out, restored);
    const r = await opened(restored);
    expect(await rowsOf(r)).toEqual([1, 2, 3, 4]);
    await r.close();
  });

  it('docs doctor is quiet about log files, names one cut short, and --repair keeps its whole lines', async () => {
    const dir = await storeDir();
    const b = await opened(dir);
    await append(b, 1, 2);
    await b.close();
    const healthy = await doctor(dir);
    expect(healthy.damaged).toEqual([]);
    expect(healthy.notes).toEqual([]);
    expect(healthy.rows).toBeGreaterThanOrEqual(2);
    // A journal still appending to it: examined as the next start leaves it.
    const c = await opened(dir);
    await append(c, 3);
    await c.discard();
    expect((await doctor(dir)).damaged).toEqual([]);
    const d = await opened(dir);
    await d.close();
    appendFileSync(join(dir, FILE), '{"i":"o1:torn');
    const torn = await doctor(dir);
    expect(torn.damaged).toEqual([{ file: FILE, problem: expect.stringMatching(/^is cut short: its last line \(4\) has no end/) }]);
    const repaired = await doctor(dir, { repair: true });
    expect(repaired.damaged).toEqual([]);
    expect(repaired.repaired?.moved).toEqual([`${FILE} (its torn end)`]);
    expect(readFileSync(join(dir, repaired.repaired!.quarantine!, `${FILE}.torn`), 'utf8')).toBe('{"i":"o1:torn');
    const e = await opened(dir);
    expect(await rowsOf(e)).toEqual([1, 2, 3]);
    await e.close();
  });

  it('copies a log whole when a commit names it (docs migrate), replacing what was there', async () => {
    const dir = tempDir();
    const b = await opened(dir);
    await append(b, 1);
    await b.commit(new Map([[LOG, { auditLog: { [row(7).id]: row(7), [row(5).id]: row(5) } }]]), new Map());
    await append(b, 8);
    expect(await rowsOf(b)).toEqual([5, 7, 8]);
    await b.discard();
    const c = await opened(dir);
    expect(await rowsOf(c)).toEqual([5, 7, 8]);
    await c.commit(new Map([[LOG, null]]), new Map());
    expect(await rowsOf(c)).toEqual([]);
    expect(await c.keys()).not.toContain(LOG);
    await c.close();
  });
});

describe("a log's index (LogIndex), kept in trim order", () => {
  // The plan a trim made before the index kept its rows in order: every row sorted at each trim.
  const reference = (rows: Map<string, { id: string; ord: string; bytes: number }>, keep: number, after: string) => {
    const all = [...rows.values()].sort((a, b) => (a.ord < b.ord ? -1 : a.ord > b.ord ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    let from = all.length;
    if (keep > 0) {
      from = Math.max(0, all.length - keep);
      while (from < all.length && all[from]!.ord < after) from++;
    }
    const removed = all.slice(0, from);
    return { removed: removed.map((r) => r.id), count: all.length - from, oldest: all[from]?.ord ?? '', bytes: removed.reduce((n, r) => n + r.bytes, 0) };
  };

  it('plans the same trims as sorting every row would, through rows added out of order, removals and compactions', () => {
    const next = random(SEED ^ 0x10c1);
    const idx = new LogIndex();
    const rows = new Map<string, { id: string; ord: string; bytes: number }>();
    let clock = 1000;
    for (let step = 0; step < 3000; step++) {
      const roll = next();
      if (roll < 0.7) {
        // Mostly in time order; now and then a clock set back, or the same time as the last row.
        clock += next() < 0.1 ? -Math.floor(next() * 50) : Math.floor(next() * 3);
        const r = { id: `o1:${Math.floor(next() * 1e9).toString(36)}`, ord: String(clock).padStart(8, '0'), bytes: 50 + Math.floor(next() * 100) };
        idx.add(r.id, r.ord, r.bytes);
        if (!rows.has(r.id)) rows.set(r.id, r);
      } else if (roll < 0.8 && rows.size) {
        const ids = [...rows.keys()];
        const id = ids[Math.floor(next() * ids.length)]!;
        idx.remove(id);
        rows.delete(id);
      } else {
        const keep = Math.floor(next() * (rows.size + 5)) - 2;
        const after = next() < 0.5 ? '' : String(clock - Math.floor(next() * 200)).padStart(8, '0');
        const plan = idx.plan(keep, after);
        expect(plan).toEqual(reference(rows, keep, after));
        if (next() < 0.5) {
          for (const id of plan.removed) {
            idx.remove(id);
            rows.delete(id);
          }
        }
      }
      expect(idx.size).toBe(rows.size);
    }
    expect(idx.live).toBe([...rows.values()].reduce((n, r) => n + r.bytes, 0));
    expect(idx.plan(0, '').removed).toEqual(reference(rows, 0, '').removed); // every row, in trim order
  });

  it('writes the kept lines of a log anew in trim order, whatever order they were appended in', () => {
    const text = logLines([3, 1, 2, 4].map((n) => ({ table: 'auditLog', row: row(n) })));
    const kept = keptLines(text, new Set([row(2).id]));
    expect(
      kept
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).r.n),
    ).toEqual([1, 3, 4]);
    const inOrder = logLines([1, 2, 3].map((n) => ({ table: 'auditLog', row: row(n) })));
    expect(keptLines(inOrder, new Set())).toBe(inOrder);
  });
});

describe('a log file read (parseLog)', () => {
  const row = (n: number) => ({ table: 'auditLog', row: { id: `o1:${n}`, organization: 'o1', occurredAt: `2026-01-0${n}T00:00:00.000Z`, n } });
  it("gives the rows still there, oldest line's first; names a damaged line of a row there, and a last line cut short", () => {
    const text = logLines([row(1), row(2), row(3)], ['o1:2']);
    const ok = parseLog(text);
    expect([...ok.rows.keys()]).toEqual(['o1:1', 'o1:3']);
    expect(ok.problem).toBeUndefined();
    expect(ok.whole).toBe(Buffer.byteLength(text));
    // Line 3 (row 3's) with its id and order whole but its row broken: found when its row is read.
    const lines = text.split('\n');
    lines[2] = lines[2]!.replace('"r":{', '"r":{,');
    expect(parseLog(lines.join('\n')).problem).toBe('is damaged: line 3 is no change of a log (a row appended or removed)');
    // Not JSON at all: found by the scan.
    expect(parseLog(`${text}nonsense\n`).problem).toBe('is damaged: line 5 is no change of a log (a row appended or removed)');
    const cut = parseLog(`${text}{"i":"o1:4"`);
    expect(cut.problem).toBe('is cut short: its last line (5) has no end');
    expect(cut.whole).toBe(Buffer.byteLength(text));
    expect([...cut.rows.keys()]).toEqual(['o1:1', 'o1:3']);
  });
});

describe('log files under SIGKILL', () => {
  it('every acknowledged write has its event in the log, once, across kills of docs serve during commits and checkpoints', async () => {
    const dir = tempDir();
    const token = 'gb_api_log_kill';
    const h = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created: string[] = [];
    let org = '';
    for (let round = 0; round < 4; round++) {
      // A checkpoint every few writes: kills land between a commit's sync and its lines' append,
      // and during appends and checkpoints.
      const s = await spawnServe(['--data', dir, '--quiet'], { DOCS_BOOTSTRAP_TOKEN: token, DOCS_JOURNAL_CHECKPOINT_BYTES: '16384' });
      org ||= ((await (await fetch(`${s.url}/v1/orgs`, { headers: h })).json()) as any).items[0].id;
      let stop = false;
      const target = created.length + 10 + Math.floor(Math.random() * 30);
      const writers = Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; !stop; i++) {
          try {
            const r = await fetch(`${s.url}/v1/orgs/${org}/spaces`, { method: 'POST', headers: h, body: JSON.stringify({ title: `S ${round}-${w}-${i}` }) });
            if (r.status === 201) created.push(((await r.json()) as any).id);
          } catch {
            return; // killed
          }
        }
      });
      await expect.poll(() => created.length, { timeout: 30_000, interval: 2 }).toBeGreaterThan(target);
      s.child.kill('SIGKILL');
      await s.exited;
      stop = true;
      await Promise.all(writers);
    }
    const b = new FileBackend(dir);
    await b.open();
    const file = `logs/log__audit__${org}.jsonl`;
    const ids = readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).i);
    expect(new Set(ids).size).toBe(ids.length); // no row twice
    const events = Object.values((await b.load([`log/audit/${org}`])).get(`log/audit/${org}`)!.data.auditLog!) as any[];
    const made = new Set(events.filter((e) => e.action === 'space.created').map((e) => e.target.id));
    for (const id of created) expect(made.has(id), `the event of acknowledged space ${id}`).toBe(true);
    await b.close();
  }, 120_000);
});
