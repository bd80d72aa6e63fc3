import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { doctor } from '../../src/store/doctor.js';
import { FileBackend } from '../../src/store/file-backend.js';
import { JOURNAL, journalRecord, parseJournal } from '../../src/store/journal.js';
import { bucketFile, bucketText, catalogEntry, sumBucket } from '../../src/store/shard-files.js';
import { ShardStore } from '../../src/store/shard-store.js';
import type { TableSpec } from '../../src/store/port.js';
import { faultyDisk } from '../helpers/faulty-disk.js';
import { tempDir } from '../helpers/server.js';

// A data directory's commit is one record appended to its journal and fdatasync'd (the commit
// point); the files follow without fsync, the catalog's at the next checkpoint. These tests
// stand in for a crash after the commit point by emptying the files a lost page cache would
// leave empty, then opening the directory again without closing the first store (its journal's
// handle closed as a dead process's would be: `crash`).

const SPECS: TableSpec[] = [{ name: 'orgs', shard: (r: any) => `org/${r.id}`, locateId: (id: string) => `org/${id}`, indexes: [] } as TableSpec];

const empty = (dir: string, ...files: string[]) => {
  for (const f of files) writeFileSync(join(dir, f), '');
};
const values = (store: ShardStore, ...ids: string[]) => store.read((tx) => ids.map((id) => tx.get<any>('orgs', id)?.v));
/** The process that wrote `store` ends without closing it: its journal's handle goes (as a dead process's), the journal stays. */
const crash = (store: ShardStore) => (store.backend as FileBackend).discard();
/** Temp files left anywhere in the directory. */
const temps = (dir: string) => ['store', 'checksums', '.'].flatMap((d) => readdirSync(join(dir, d)).filter((f) => f.endsWith('.tmp')));

describe('the commit journal of a data directory', () => {
  it('writes again, at open, the files of commits a crash left unsynced: shards and catalog', async () => {
    const dir = tempDir();
    const store = await ShardStore.open(new FileBackend(dir), SPECS);
    await store.write((tx) => (tx.put('orgs', { id: 'a', v: 1 }), tx.put('orgs', { id: 'b', v: 1 })));
    await store.write((tx) => tx.put('orgs', { id: 'a', v: 2 }));
    expect(existsSync(join(dir, JOURNAL))).toBe(true);
    // The crash: no close, and the shard files' bytes never reached the disk.
    await crash(store);
    empty(dir, 'store/org__a.json', 'store/org__b.json');
    const again = await ShardStore.open(new FileBackend(dir, { statAtOpen: true }), SPECS);
    expect(await values(again, 'a', 'b')).toEqual([2, 1]);
    expect(existsSync(join(dir, JOURNAL))).toBe(false);
    // The catalog on disk agrees with the files (statAtOpen checked their sizes; the entry is exact).
    const text = readFileSync(join(dir, 'store/org__a.json'), 'utf8');
    const bucket = JSON.parse(readFileSync(join(dir, 'checksums', bucketFile(sumBucket('org__a.json'))), 'utf8'));
    expect(bucket['org__a.json']).toBe(catalogEntry(text));
    await again.close();
  });

  it('a record cut short by a crash ends the replay: the whole records before it are applied', async () => {
    const dir = tempDir();
    const store = await ShardStore.open(new FileBackend(dir), SPECS);
    await store.write((tx) => tx.put('orgs', { id: 'a', v: 1 }));
    await crash(store);
    const torn = journalRecord([['store/org__a.json', JSON.stringify({ orgs: { a: { id: 'a', v: 9 } } })]]);
    appendFileSync(join(dir, JOURNAL), torn.slice(0, torn.length - 5));
    empty(dir, 'store/org__a.json');
    const again = await ShardStore.open(new FileBackend(dir, { statAtOpen: true }), SPECS);
    expect(await values(again, 'a')).toEqual([1]);
    await again.close();
  });

  it('parses whole records only: a checksum that does not match ends them', () => {
    const one = journalRecord([
      ['store/x.json', '{"t":{}}'],
      ['checksums/01.json', null],
    ]);
    const two = journalRecord([['store/y.json', 'é']]);
    expect(parseJournal(Buffer.from(one + two))).toEqual({
      entries: [
        ['store/x.json', '{"t":{}}'],
        ['checksums/01.json', null],
        ['store/y.json', 'é'],
      ],
      end: Buffer.byteLength(one + two),
      records: 2,
    });
    const damaged = one + two.replace('é', 'e');
    expect(parseJournal(Buffer.from(damaged)).records).toBe(1);
  });

  it('a full disk at the journal append: the record is cut off, no temp file stays, and later commits replay after a crash', async () => {
    const dir = tempDir();
    const { disk, openFile } = faultyDisk();
    const store = await ShardStore.open(new FileBackend(dir, { openFile }), SPECS);
    await store.write((tx) => tx.put('orgs', { id: 'a', v: 1 }));
    const size = statSync(join(dir, JOURNAL)).size;
    disk.budget = 1; // the new shard's temp file is written, the record is not
    const err: any = await store.write((tx) => (tx.put('orgs', { id: 'a', v: 2 }), tx.put('orgs', { id: 'b', v: 2 }))).catch((e) => e);
    expect(err.kind).toBe('unavailable');
    expect(err.message).toContain('ENOSPC');
    expect(statSync(join(dir, JOURNAL)).size).toBe(size);
    expect(temps(dir)).toEqual([]);
    disk.budget = Infinity;
    await store.write((tx) => tx.put('orgs', { id: 'c', v: 3 }));
    await store.write((tx) => tx.put('orgs', { id: 'a', v: 4 }));
    expect(await values(store, 'a', 'b', 'c')).toEqual([4, undefined, 3]);
    await crash(store);
    empty(dir, 'store/org__a.json', 'store/org__c.json');
    const again = await ShardStore.open(new FileBackend(dir), SPECS);
    expect(await values(again, 'a', 'b', 'c')).toEqual([4, undefined, 3]);
    await again.close();
  });

  it('docs doctor examines the directory as its journal leaves it (no damage for what it holds); --repair replays it', async () => {
    const dir = tempDir();
    const store = await ShardStore.open(new FileBackend(dir), SPECS);
    await store.write((tx) => tx.put('orgs', { id: 'a', v: 1 }));
    await store.write((tx) => tx.put('orgs', { id: 'b', v: 1 }));
    await store.write((tx) => tx.put('orgs', { id: 'a', v: 2 }));
    // The crash: a's file emptied, b's catalog bucket never written (the catalog waits for a checkpoint).
    await crash(store);
    empty(dir, 'store/org__a.json');
    const report = await doctor(dir);
    expect(report.notes).toContainEqual(expect.stringMatching(/^journal: commits after the last checkpoint/));
    // Neither the emptied shard nor b's file missing from the catalog on disk is damage: the journal holds both.
    expect(report.damaged.map((d) => d.file)).toEqual(['store/root.json']);
    expect(report.rows).toBe(2);
    // A record naming a path outside the directory is.
    appendFileSync(join(dir, JOURNAL), journalRecord([['../outside.json', '{}']]));
    expect((await doctor(dir)).damaged.map((d) => d.file)).toContain(JOURNAL);
    writeFileSync(
      join(dir, JOURNAL),
      readFileSync(join(dir, JOURNAL)).subarray(0, statSync(join(dir, JOURNAL)).size - Buffer.byteLength(journalRecord([['../outside.json', '{}']]))),
    );
    await doctor(dir, { repair: true, confirm: async () => true });
    expect(existsSync(join(dir, JOURNAL))).toBe(false);
    // The shard the crash emptied is whole again (this bare store has no root.json: doctor names that alone).
    expect((await doctor(dir)).damaged.map((d) => d.file)).toEqual(['store/root.json']);
    expect(JSON.parse(readFileSync(join(dir, 'store/org__a.json'), 'utf8')).orgs.a.v).toBe(2);
    expect(JSON.parse(readFileSync(join(dir, 'store/org__b.json'), 'utf8')).orgs.b.v).toBe(1);
  });

  it('a shard written again is read from the commit until the checkpoint writes its file, once', async () => {
    const dir = tempDir();
    const backend = new FileBackend(dir);
    const store = await ShardStore.open(backend, SPECS);
    await store.write((tx) => tx.put('orgs', { id: 'a', v: 1 }));
    const first = readFileSync(join(dir, 'store/org__a.json'), 'utf8');
    for (let v = 2; v <= 4; v++) await store.write((tx) => tx.put('orgs', { id: 'a', v }));
    // The file still holds the first text; the backend answers the last one (checked against the catalog).
    expect(readFileSync(join(dir, 'store/org__a.json'), 'utf8')).toBe(first);
    expect((await backend.load(['org/a'])).get('org/a')!.data.orgs!.a.v).toBe(4);
    await store.close();
    expect(JSON.parse(readFileSync(join(dir, 'store/org__a.json'), 'utf8')).orgs.a.v).toBe(4);
  });

  it('a big commit stages its files fsynced and names them in its record; a crash before the renames completes them', async () => {
    const dir = tempDir();
    const store = await ShardStore.open(new FileBackend(dir, { bigCommit: 0 }), SPECS);
    await store.write((tx) => (tx.put('orgs', { id: 'a', v: 1, pad: 'x'.repeat(5000) }), tx.put('orgs', { id: 'b', v: 1 })));
    const journal = readFileSync(join(dir, JOURNAL), 'utf8');
    expect(journal).toMatch(/^M store\/org__a\.json \d+\nstore\/org__a\.json\.\d+\.[0-9a-f]+\.tmp\n/m);
    expect(journal.length).toBeLessThan(5000);
    expect(JSON.parse(readFileSync(join(dir, 'store/org__a.json'), 'utf8')).orgs.a.v).toBe(1);
    await store.close();
    // A crash after the record, before the rename: the temp file is there, named by the record.
    const a2 = JSON.stringify({ orgs: { a: { id: 'a', v: 2 } } });
    writeFileSync(join(dir, 'store/org__a.json.1.x.tmp'), a2);
    const bf = bucketFile(sumBucket('org__a.json'));
    const sums = new Map(Object.entries(JSON.parse(readFileSync(join(dir, 'checksums', bf), 'utf8')) as Record<string, string>));
    sums.set('org__a.json', catalogEntry(a2));
    writeFileSync(
      join(dir, JOURNAL),
      journalRecord([
        ['store/org__a.json', 'store/org__a.json.1.x.tmp', true],
        [`checksums/${bf}`, bucketText(sums)],
      ]),
    );
    const again = await ShardStore.open(new FileBackend(dir, { statAtOpen: true }), SPECS);
    expect(await values(again, 'a', 'b')).toEqual([2, 1]);
    expect(temps(dir)).toEqual([]);
    await again.close();
  });

  it('a checkpoint writes the catalog, syncs the files and empties the journal; close removes it', async () => {
    const dir = tempDir();
    const store = await ShardStore.open(new FileBackend(dir, { checkpointBytes: 1 }), SPECS);
    await store.write((tx) => tx.put('orgs', { id: 'a', v: 1 }));
    expect(statSync(join(dir, JOURNAL)).size).toBe(0);
    const bucket = JSON.parse(readFileSync(join(dir, 'checksums', bucketFile(sumBucket('org__a.json'))), 'utf8'));
    expect(bucket['org__a.json']).toBe(catalogEntry(readFileSync(join(dir, 'store/org__a.json'), 'utf8')));
    await store.close();
    expect(existsSync(join(dir, JOURNAL))).toBe(false);
  });

  it('close makes each file durable once and removes the journal without emptying it first', async () => {
    const dir = tempDir();
    // Every open of the backend's files, and what was asked of each handle.
    const calls: string[] = [];
    const openFile = async (path: string, flags: string, mode: number) => {
      const fd = await open(path, flags, mode);
      const name = path.slice(dir.length + 1).replace(/\.\d+\.[0-9a-f]+\.tmp$/, '.tmp');
      calls.push(`open ${name} ${flags}`);
      for (const m of ['sync', 'datasync', 'truncate'] as const) {
        const f = (fd as any)[m].bind(fd);
        (fd as any)[m] = (...a: unknown[]) => (calls.push(`${m} ${name}`), f(...a));
      }
      return fd;
    };
    const store = await ShardStore.open(new FileBackend(dir, { openFile }), SPECS);
    await store.write((tx) => (tx.put('orgs', { id: 'a', v: 1 }), tx.put('orgs', { id: 'b', v: 1 })));
    await store.write((tx) => tx.put('orgs', { id: 'a', v: 2 }));
    calls.length = 0;
    await store.close();
    // org__a.json, committed again, is written once, fsynced as it is staged, not opened again
    // to be fsynced; org__b.json, renamed into place by its commit, is fsynced once; the journal,
    // removed, is not emptied and synced first.
    expect(calls.filter((c) => c.includes('org__a.json')).sort()).toEqual(['open store/org__a.json.tmp wx', 'sync store/org__a.json.tmp']);
    expect(calls.filter((c) => c.includes('org__b.json')).sort()).toEqual(['open store/org__b.json r', 'sync store/org__b.json']);
    expect(calls.filter((c) => c.includes(JOURNAL))).toEqual([]);
    expect(existsSync(join(dir, JOURNAL))).toBe(false);
    const again = await ShardStore.open(new FileBackend(dir, { statAtOpen: true }), SPECS);
    expect(await values(again, 'a', 'b')).toEqual([2, 1]);
    await again.close();
  });
});
